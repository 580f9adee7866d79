import type { Queryable } from '../db.ts';

/**
 * Deletes the tokens the demo seed made (migration 011's flag), never one a user created; their
 * webhooks and deliveries go with them (ON DELETE CASCADE). Returns how many there were.
 */
export async function deleteDemoTokens(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ id: string }>('DELETE FROM api_tokens WHERE demo RETURNING id');
  return rows.length;
}
