// Session tokens for the checks (POST /auth/signin with --session-user/--session-password):
// sign in, decode the JWT's claims, and end the session again.

import type { HttpResponse } from '../http/httpClient.ts';
import { variantsOf } from '../model/variants.ts';
import { CheckFailure } from '../model/failure.ts';
import { forgetUnknownOperation } from './assert.ts';
import type { CheckContext } from '../engine/runtime/context.ts';

export interface SessionPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  [member: string]: unknown;
}

/**
 * POST /auth/signin with the configured user, in the body fields the target uses (the interface
 * shows no sign-in body; see the target variants); the answer as is (validation deferred).
 */
export async function signIn(
  ctx: CheckContext,
  credentials?: { username: string; password: string },
): Promise<HttpResponse> {
  const username = credentials?.username ?? ctx.tokens.sessionUser;
  const password = credentials?.password ?? ctx.tokens.sessionPassword;
  if (!username || !password) throw new Error(`${ctx.check.id} signs in; declare needs: ['session']`);
  const { userField, passwordField } = variantsOf(ctx).signIn;
  const res = await ctx.http.post('/auth/signin', {
    token: 'none',
    json: { [userField]: username, [passwordField]: password },
    validate: 'defer',
  });
  rememberSecrets(ctx, res);
  return res;
}

/** Hide the session's tokens from every report. */
export function rememberSecrets(ctx: CheckContext, res: HttpResponse): void {
  const body = res.body as Partial<SessionPair> | undefined;
  if (typeof body?.access_token === 'string') ctx.secret(body.access_token, '<session access token>');
  if (typeof body?.refresh_token === 'string') ctx.secret(body.refresh_token, '<session refresh token>');
}

/** The pair of a 200 sign-in or refresh answer, or a failure about `requirements`. */
export function sessionPair(res: HttpResponse, requirements: readonly string[]): SessionPair {
  const body = res.body as Partial<SessionPair> | undefined;
  const problems: string[] = [];
  if (typeof body?.access_token !== 'string' || body.access_token === '') problems.push('access_token');
  if (typeof body?.refresh_token !== 'string' || body.refresh_token === '') problems.push('refresh_token');
  if (typeof body?.expires_in !== 'number' || !Number.isInteger(body.expires_in)) problems.push('expires_in');
  if (res.status !== 200 || problems.length > 0) {
    throw new CheckFailure({
      message: `${res.exchange.request.method} ${new URL(res.url).pathname} answered ${res.status}${problems.length ? ` without ${problems.join(', ')}` : ''}`,
      received: res.status === 200 ? Object.keys(body ?? {}) : res.status,
      expected: '200 with access_token, expires_in and refresh_token',
      requirements,
      exchanges: [res.exchange],
    });
  }
  return body as SessionPair;
}

/** The claims of a JWT (not verified: the suite has no key), or undefined when it is not a JWT. */
export function jwtClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** /auth/logout with the session token, in the method the target uses (not shown by the interface); the answer as is. */
export async function logout(ctx: CheckContext, accessToken: string): Promise<HttpResponse> {
  const res = await ctx.http.request(variantsOf(ctx).logoutMethod, '/auth/logout', {
    token: { bearer: accessToken },
    validate: 'defer',
  });
  forgetUnknownOperation(res);
  return res;
}
