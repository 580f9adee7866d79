import { hashToken } from '../auth/tokenHash.ts';
import type { Db } from '../storage/db.ts';
import { findSessionPrincipal } from '../storage/sessions/findSessionPrincipal.ts';
import { findSpentRefreshToken } from '../storage/sessions/findSpentRefreshToken.ts';
import { revokeSession } from '../storage/sessions/revokeSession.ts';
import { rotateRefreshToken } from '../storage/sessions/rotateRefreshToken.ts';
import type { AccessTokenKey } from './accessToken.ts';
import { generateRefreshToken } from './refreshToken.ts';
import { REFRESH_TOKEN_MS, tokenResponse, type TokenResponse } from './tokenPair.ts';

export type RefreshOutcome =
  | { ok: true; tokens: TokenResponse }
  /** `reused`: the token was already exchanged, and its session is now revoked (DEC-AUTH-012). */
  | { ok: false; reason: 'invalid' | 'reused' };

/** Exchanges a refresh token for a new pair; each refresh token works once (DEC-AUTH-002). */
export async function refreshSession(deps: AccessTokenKey & { db: Db }, refreshToken: string): Promise<RefreshOutcome> {
  const now = deps.now();
  const oldHash = hashToken(refreshToken);
  const next = generateRefreshToken();
  const outcome = await deps.db.transaction(async (tx) => {
    const rotated = await rotateRefreshToken(tx, {
      oldHash,
      newHash: hashToken(next),
      newExpires: new Date(now + REFRESH_TOKEN_MS),
      now: new Date(now),
    });
    if (rotated === null) {
      const spent = await findSpentRefreshToken(tx, { tokenHash: oldHash });
      if (spent === null) return { ok: false, reason: 'invalid' } as const;
      await revokeSession(tx, { sessionId: spent.session_id, reason: 'refresh_reuse', now: new Date(now) });
      return { ok: false, reason: 'reused' } as const;
    }
    const principal = await findSessionPrincipal(tx, { sessionId: rotated.session_id, userId: rotated.user_id });
    return principal === null ? ({ ok: false, reason: 'invalid' } as const) : ({ ok: true, principal } as const);
  });
  if (!outcome.ok) return outcome;
  const { principal } = outcome;
  const claims = {
    sub: principal.user_id,
    sid: principal.session_id,
    acc: principal.account_id,
    roles: principal.roles,
  };
  return { ok: true, tokens: await tokenResponse(deps, claims, next) };
}
