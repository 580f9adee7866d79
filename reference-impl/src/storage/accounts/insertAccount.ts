import type { Queryable } from '../db.ts';

/**
 * Stores an account and its organisations (seeding and bootstrap). An existing account or
 * organisation is left as it is; an organisation of another account stays that account's.
 */
export async function insertAccount(
  db: Queryable,
  params: { id: string; name: string; organisations: readonly string[] },
): Promise<void> {
  await db.query('INSERT INTO accounts (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [
    params.id,
    params.name,
  ]);
  if (params.organisations.length === 0) return;
  await db.query(
    `INSERT INTO organisations (userorganisation, account_id)
     SELECT o, $2 FROM unnest($1::text[]) AS o
     ON CONFLICT (userorganisation) DO NOTHING`,
    [[...params.organisations], params.id],
  );
}
