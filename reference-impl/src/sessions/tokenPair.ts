import type { components } from '../../../generated/types.ts';
import { ACCESS_TOKEN_SECONDS, issueAccessToken, type AccessClaims, type AccessTokenKey } from './accessToken.ts';

/** A refresh token lives 14 days from its issue (DEC-AUTH-002). */
export const REFRESH_TOKEN_MS = 14 * 24 * 60 * 60 * 1000;

/** The answer of sign-in and refresh (DEC-AUTH-001, DEC-AUTH-014); `token_type` always given. */
export type TokenResponse = Required<components['schemas']['TokenResponse']>;

export async function tokenResponse(
  key: AccessTokenKey,
  claims: AccessClaims,
  refreshToken: string,
): Promise<TokenResponse> {
  return {
    access_token: await issueAccessToken(key, claims),
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: refreshToken,
  };
}
