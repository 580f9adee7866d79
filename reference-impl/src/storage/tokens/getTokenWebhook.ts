import type { Queryable } from '../db.ts';

/** A token's callback URL and stored signing secret, as a delivery about to be sent needs them. */
export async function getTokenWebhook(
  db: Queryable,
  params: { tokenId: string },
): Promise<{ callbackUrl: string | null; signingSecret: string | null } | null> {
  const { rows } = await db.query<{ callbackUrl: string | null; signingSecret: string | null }>(
    'SELECT callback_url AS "callbackUrl", signing_secret AS "signingSecret" FROM api_tokens WHERE id = $1',
    [params.tokenId],
  );
  return rows[0] ?? null;
}
