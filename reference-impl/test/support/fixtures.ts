import { randomUUID } from 'node:crypto';
import { generateTokenValue, hashToken } from '../../src/auth/tokenHash.ts';
import type { Role } from '../../src/http/principal.ts';
import type { Queryable } from '../../src/storage/db.ts';

// Test data written straight into storage, so route tests don't depend on the token endpoints.

export async function createTestAccount(
  db: Queryable,
  params: { accountId: string; organisations: readonly string[]; name?: string },
): Promise<void> {
  await db.query('INSERT INTO accounts (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [
    params.accountId,
    params.name ?? params.accountId,
  ]);
  for (const organisation of params.organisations) {
    await db.query('INSERT INTO organisations (userorganisation, account_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      organisation,
      params.accountId,
    ]);
  }
}

export interface TestTokenParams {
  accountId: string;
  roles?: readonly Role[];
  /** Absent: the account's organisations (DEC-AUTH-004). */
  organisations?: readonly string[];
  /** Absent: live only. */
  wfstatus?: readonly string[];
  callbackUrl?: string;
  signingSecret?: string;
  /** The write grant (DEC-AUTH-020); default true: the route tests write with their tokens. */
  canWrite?: boolean;
}

/** Creates an account token and returns its value and id. */
export async function createTestToken(db: Queryable, params: TestTokenParams): Promise<{ token: string; id: string }> {
  const token = generateTokenValue();
  const id = randomUUID();
  await db.query(
    `INSERT INTO api_tokens (id, account_id, name, roles, token_hash, filter_userorganisations, filter_wfstatus, callback_url, signing_secret, can_write)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      params.accountId,
      `test ${id.slice(0, 8)}`,
      [...(params.roles ?? ['ROLE_EXTERNAL_USER'])],
      hashToken(token),
      params.organisations === undefined ? null : [...params.organisations],
      params.wfstatus === undefined ? null : [...params.wfstatus],
      params.callbackUrl ?? null,
      params.signingSecret ?? null,
      params.canWrite ?? true,
    ],
  );
  return { token, id };
}

export const ALL_STATUSES = ['readyforvalidation', 'approved', 'rejected', 'archived', 'deleted'] as const;
