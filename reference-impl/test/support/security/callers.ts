import { HOUR } from '../../../src/config.ts';
import type { TestApp } from '../testApp.ts';
import type { RawClient } from './rawHttp.ts';
import type { SecurityWorld } from './world.ts';

// The kinds of caller the authorisation matrix tries every operation with, and the bearer each
// one sends. Every kind with a token acts on account A's objects (the world's targets).

export const CALLERS = [
  'none',
  'invalid',
  'expired',
  'external',
  'otherAdmin',
  'admin',
  'superAdmin',
  'otherOrg',
  'live',
  'session',
] as const;
export type Caller = (typeof CALLERS)[number];

/** What each kind is, for the table's header and failure messages. */
export const CALLER_MEANING: Readonly<Record<Caller, string>> = {
  none: 'no Authorization header',
  invalid: 'a well-formed account token that does not exist',
  expired: 'a session JWT of the editor of A, signed in two hours ago (valid one hour)',
  external: 'ROLE_EXTERNAL_USER token of A, every status',
  otherAdmin: 'ROLE_ADMIN token of account B',
  admin: 'ROLE_ADMIN token of A, every status',
  superAdmin: 'ROLE_SUPER_ADMIN token of a third account',
  otherOrg: 'ROLE_EXTERNAL_USER token of A restricted to organisation A2 (targets are in A1)',
  live: 'ROLE_EXTERNAL_USER token of A with the default scope: approved only',
  session: 'session JWT of the editor of A (ROLE_EXTERNAL_USER)',
};

export interface SessionTokens {
  access_token: string;
  refresh_token: string;
}

export async function signIn(http: RawClient, user: { username: string; password: string }): Promise<SessionTokens> {
  const answer = await http.send({
    method: 'POST',
    path: '/auth/signin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, password: user.password }),
  });
  if (answer.status !== 200) throw new Error(`setup: sign-in answered ${answer.status}: ${answer.body.toString()}`);
  return answer.json as SessionTokens;
}

/** The bearer value of every caller kind (undefined: no header). */
export async function callerBearers(
  app: TestApp,
  http: RawClient,
  world: SecurityWorld,
): Promise<Record<Caller, string | undefined>> {
  // Signed in two hours ago on the app's own clock, so the JWT and its session have expired now.
  app.clock.set(Date.now() - 2 * HOUR);
  let expired: SessionTokens;
  try {
    expired = await signIn(http, world.users.editor);
  } finally {
    app.clock.set(undefined);
  }
  const session = await signIn(http, world.users.editor);
  return {
    none: undefined,
    invalid: 'cst_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    expired: expired.access_token,
    external: world.tokens.external,
    otherAdmin: world.tokens.otherAdmin,
    admin: world.tokens.admin,
    superAdmin: world.tokens.superAdmin,
    otherOrg: world.tokens.orgA2Only,
    live: world.tokens.live,
    session: session.access_token,
  };
}
