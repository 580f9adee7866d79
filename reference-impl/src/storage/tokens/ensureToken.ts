import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db.ts';
import { arrayOrNull } from './tokenRow.ts';

export interface EnsureTokenParams {
  accountId: string;
  name: string;
  roles: readonly string[];
  /** SHA-256 of the token value (DEC-AUTH-006). */
  tokenHash: string;
  /** Null: the DEC-AUTH-004 defaults (the account's organisations; live data only). */
  filterUserorganisations?: readonly string[] | null;
  filterWfstatus?: readonly string[] | null;
  /** Made by the demo seed, so renewed at each start (migration 011). Default: false. */
  demo?: boolean;
  /** The write grant (DEC-AUTH-020), on insert. */
  canWrite: boolean;
}

/**
 * Makes sure a token with this hash exists (demo tokens, BOOTSTRAP_ADMIN_TOKEN): inserted when
 * absent; when present it keeps its account and filter and gains any role of `roles` it lacks.
 * Idempotent, so every start may call it. Returns the token's id and whether it was created now.
 */
export async function ensureToken(db: Queryable, params: EnsureTokenParams): Promise<{ id: string; created: boolean }> {
  const { rows } = await db.query<{ id: string; created: boolean }>(
    `INSERT INTO api_tokens AS t (id, account_id, name, roles, token_hash, filter_userorganisations, filter_wfstatus, demo, can_write)
     VALUES ($1, $2, $3, $4::text[], $5, $6::text[], $7::text[], $8, $9)
     ON CONFLICT (token_hash) DO UPDATE
        SET roles = ARRAY(SELECT DISTINCT r FROM unnest(t.roles || EXCLUDED.roles) AS r ORDER BY r)
     RETURNING t.id, (xmax = 0) AS created`,
    [
      randomUUID(),
      params.accountId,
      params.name,
      [...params.roles],
      params.tokenHash,
      arrayOrNull(params.filterUserorganisations ?? null),
      arrayOrNull(params.filterWfstatus ?? null),
      params.demo ?? false,
      params.canWrite,
    ],
  );
  return rows[0]!;
}
