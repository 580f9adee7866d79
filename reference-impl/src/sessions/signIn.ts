import { randomUUID } from 'node:crypto';
import { hashToken } from '../auth/tokenHash.ts';
import type { Queryable } from '../storage/db.ts';
import { findUserByUsername } from '../storage/sessions/findUserByUsername.ts';
import { insertSession } from '../storage/sessions/insertSession.ts';
import type { AccessTokenKey } from './accessToken.ts';
import { dummyPasswordHash, verifyPassword } from './password.ts';
import { generateRefreshToken } from './refreshToken.ts';
import { REFRESH_TOKEN_MS, tokenResponse, type TokenResponse } from './tokenPair.ts';

export interface SessionDeps extends AccessTokenKey {
  db: Queryable;
}

/**
 * Starts a session for valid credentials; null for an unknown user or a wrong password. Both cost
 * one scrypt run, so the time taken does not tell which usernames exist.
 */
export async function signIn(
  deps: SessionDeps,
  credentials: { username: string; password: string },
): Promise<TokenResponse | null> {
  const user = await findUserByUsername(deps.db, { username: credentials.username });
  const matches = await verifyPassword(credentials.password, user?.password_hash ?? (await dummyPasswordHash()));
  if (user === null || !matches) return null;

  const now = deps.now();
  const sessionId = randomUUID();
  const refreshToken = generateRefreshToken();
  await insertSession(deps.db, {
    id: sessionId,
    userId: user.id,
    refreshTokenHash: hashToken(refreshToken),
    refreshExpires: new Date(now + REFRESH_TOKEN_MS),
    created: new Date(now),
  });
  return tokenResponse(deps, { sub: user.id, sid: sessionId, acc: user.account_id, roles: user.roles }, refreshToken);
}
