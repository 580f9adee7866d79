import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

// @implements SESSION-003
// Session access tokens: HS256 JWTs valid one hour (SESSION-003). The algorithm is fixed on both
// sides: a token naming any other `alg` (including `none`) is rejected by jwtVerify.

export const ACCESS_TOKEN_SECONDS = 60 * 60;
const ALGORITHM = 'HS256';

export interface AccessClaims {
  /** User id. */
  sub: string;
  /** Session id. */
  sid: string;
  /** Account id. */
  acc: string;
  roles: readonly string[];
}

export interface AccessTokenKey {
  secret: string;
  /** Milliseconds since the epoch. */
  now: () => number;
}

function keyOf(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function issueAccessToken(key: AccessTokenKey, claims: AccessClaims): Promise<string> {
  const iat = Math.floor(key.now() / 1000);
  return new SignJWT({ sid: claims.sid, acc: claims.acc, roles: [...claims.roles] })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_SECONDS)
    .setJti(randomUUID())
    .sign(keyOf(key.secret));
}

/** The claims of a valid, unexpired token signed with `secret`; null otherwise. */
export async function verifyAccessToken(key: AccessTokenKey, token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, keyOf(key.secret), {
      algorithms: [ALGORITHM],
      currentDate: new Date(key.now()),
      requiredClaims: ['sub', 'sid', 'acc', 'iat', 'exp', 'jti'],
    });
    const { sub, sid, acc, roles } = payload;
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof acc !== 'string') return null;
    if (!Array.isArray(roles) || !roles.every((role) => typeof role === 'string')) return null;
    return { sub, sid, acc, roles };
  } catch {
    return null;
  }
}
