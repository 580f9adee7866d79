import { randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventBody, newTestAccount } from '../../test/support/items/itemsHarness.ts';
import { createTestUser } from '../../test/support/sessions/testUsers.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { createTestAccount, createTestToken } from '../../test/support/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';

interface Tokens {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
}

describeEachEngine('session sign-in (/auth/signin, /auth/refresh, /auth/logout)', (engine) => {
  let app: TestApp;
  const accountId = `acc-${randomUUID().slice(0, 8)}`;
  const organisations = [`${accountId}-org-a`, `${accountId}-org-b`];

  beforeAll(async () => {
    app = await startTestApp(engine.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    await createTestAccount(engine.db, { accountId, organisations });
  });
  afterAll(() => app.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${app.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      redirect: 'manual',
    });
  const signIn = async (user: { username: string; password: string }): Promise<Tokens> => {
    const response = await post('/auth/signin', { username: user.username, password: user.password });
    expect(response.status).toBe(200);
    return (await response.json()) as Tokens;
  };
  const listAssets = (token: string) =>
    fetch(`${app.baseUrl}/assets`, { headers: { authorization: `Bearer ${token}` } });

  describe('POST /auth/signin', () => {
    it('when the credentials are right, then 200 with an HS256 JWT valid one hour and a refresh token, not cacheable [SESSION-001, SESSION-003, AUTH-003, DEC-AUTH-001, DEC-AUTH-014]', async () => {
      const user = await createTestUser(engine.db, { accountId, roles: ['ROLE_ADMIN'] });
      const response = await post('/auth/signin', { username: user.username, password: user.password });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = (await response.json()) as Tokens;
      expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
      expect(body.token_type).toBe('Bearer');
      expect(body.expires_in).toBe(3600);
      expect(body.refresh_token).toMatch(/^rt_[A-Za-z0-9_-]{43}$/);
      expect(decodeProtectedHeader(body.access_token)).toEqual({ alg: 'HS256', typ: 'JWT' });
      const claims = decodeJwt(body.access_token);
      expect(claims).toMatchObject({ sub: user.id, acc: accountId, roles: ['ROLE_ADMIN'] });
      expect(claims.sid).toMatch(/^[0-9a-f-]{36}$/);
      expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
      expect(claims.exp! - claims.iat!).toBe(3600);
    });

    it('when the password is wrong or the user unknown, then the same 401 that does not say which [DEC-ERR-002]', async () => {
      const user = await createTestUser(engine.db, { accountId });
      const wrong = await post('/auth/signin', { username: user.username, password: `${user.password}x` });
      const unknown = await post('/auth/signin', {
        username: `nobody-${randomUUID()}@example.test`,
        password: user.password,
      });
      for (const response of [wrong, unknown]) {
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(await response.json()).toEqual({
          status: 401,
          error: 'Unauthorized',
          message: 'invalid username or password',
        });
      }
    });

    it('when the password is missing or the body is not JSON, then 400 [DEC-AUTH-001, DEC-ERR-003]', async () => {
      const missing = await post('/auth/signin', { username: 'someone' });
      expect(missing.status).toBe(400);
      expect(((await missing.json()) as { message: string }).message).toContain('password');
      const notJson = await fetch(`${app.baseUrl}/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"username":',
      });
      expect(notJson.status).toBe(400);
    });

    it("when the access token is the bearer, then it acts for the user's account [AUTH-003, DEC-AUTH-015]", async () => {
      const tokens = await signIn(await createTestUser(engine.db, { accountId }));
      const response = await listAssets(tokens.access_token);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ page: 0, results: [] });
    });

    it('when an hour has passed, then the access token is refused; a second before, it works [SESSION-003, AUTH-003]', async () => {
      const start = Date.UTC(2026, 10, 20, 9, 0, 0);
      app.clock.set(start);
      try {
        const tokens = await signIn(await createTestUser(engine.db, { accountId }));
        app.clock.set(start + 3599_000);
        expect((await listAssets(tokens.access_token)).status).toBe(200);
        app.clock.set(start + 3600_000);
        const expired = await listAssets(tokens.access_token);
        expect(expired.status).toBe(401);
        expect(expired.headers.get('www-authenticate')).toContain('invalid_token');
      } finally {
        app.clock.set(undefined);
      }
    });

    it('when a token is signed with another key or names another algorithm, then 401', async () => {
      const user = await createTestUser(engine.db, { accountId });
      const tokens = await signIn(user);
      const claims = decodeJwt(tokens.access_token);
      const forged = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode('y'.repeat(40)));
      const [, payload] = tokens.access_token.split('.');
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.AAAA`;
      expect((await listAssets(forged)).status).toBe(401);
      expect((await listAssets(unsigned)).status).toBe(401);
    });
  });

  describe('a session token on the item lists', () => {
    it("when a session writes and lists events, then it sees every status of its account's organisations and nothing of other accounts [AUTH-003, DEC-AUTH-015]", async () => {
      const tokens = await signIn(await createTestUser(engine.db, { accountId }));
      const api = client(app.baseUrl, tokens.access_token);
      const own = await api.post('/events', eventBody());
      expect(own.status).toBe(201);
      expect(own.body.wfstatus).toBe('readyforvalidation');
      expect(organisations).toContain(own.body.userorganisation);

      const other = await newTestAccount(engine.db);
      const foreign = await client(app.baseUrl, other.full).post('/events', eventBody());
      expect(foreign.status).toBe(201);

      const listed = await api.get('/events?wfstatus=readyforvalidation&size=2000');
      expect(listed.status).toBe(200);
      const ids = (listed.body as { id: string }[]).map((item) => item.id);
      expect(ids).toContain(own.body.id);
      expect(ids).not.toContain(foreign.body.id);
    });
  });

  describe('POST /auth/refresh', () => {
    it('when a refresh token is exchanged, then a new working pair not cacheable, and the old refresh token is spent [DEC-AUTH-002, DEC-AUTH-014]', async () => {
      const first = await signIn(await createTestUser(engine.db, { accountId }));
      const response = await post('/auth/refresh', { refresh_token: first.refresh_token });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const second = (await response.json()) as Tokens;
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.access_token).not.toBe(first.access_token);
      expect(second.expires_in).toBe(3600);
      expect(decodeJwt(second.access_token).sid).toBe(decodeJwt(first.access_token).sid);
      expect((await listAssets(second.access_token)).status).toBe(200);
      // Rotation: the pair from the next refresh works too.
      const third = (await (await post('/auth/refresh', { refresh_token: second.refresh_token })).json()) as Tokens;
      expect((await listAssets(third.access_token)).status).toBe(200);
    });

    it('when a spent refresh token comes back, then 401 and the whole session is revoked [DEC-AUTH-012]', async () => {
      const first = await signIn(await createTestUser(engine.db, { accountId }));
      const second = (await (await post('/auth/refresh', { refresh_token: first.refresh_token })).json()) as Tokens;

      const reuse = await post('/auth/refresh', { refresh_token: first.refresh_token });
      expect(reuse.status).toBe(401);
      expect(((await reuse.json()) as { message: string }).message).toBe(
        'refresh token was already used; the session is revoked',
      );

      expect((await listAssets(second.access_token)).status).toBe(401);
      expect((await listAssets(first.access_token)).status).toBe(401);
      expect((await post('/auth/refresh', { refresh_token: second.refresh_token })).status).toBe(401);
    });

    it('when two refreshes race with one token, then exactly one gets a pair [DEC-AUTH-002]', async () => {
      const first = await signIn(await createTestUser(engine.db, { accountId }));
      const statuses = await Promise.all(
        [1, 2].map(() => post('/auth/refresh', { refresh_token: first.refresh_token }).then((r) => r.status)),
      );
      expect(statuses.sort()).toEqual([200, 401]);
    });

    it('when the refresh token is unknown or older than 14 days, then 401 [DEC-AUTH-002]', async () => {
      expect((await post('/auth/refresh', { refresh_token: 'rt_unknown' })).status).toBe(401);
      const start = Date.UTC(2026, 10, 1, 9, 0, 0);
      app.clock.set(start);
      try {
        const tokens = await signIn(await createTestUser(engine.db, { accountId }));
        app.clock.set(start + 14 * 24 * 3600_000);
        expect((await post('/auth/refresh', { refresh_token: tokens.refresh_token })).status).toBe(401);
      } finally {
        app.clock.set(undefined);
      }
    });
  });

  describe('POST /auth/logout', () => {
    it('when a session logs out, then 200 {message} without a redirect, and its tokens stop working at once [SESSION-002, DEC-AUTH-003]', async () => {
      const tokens = await signIn(await createTestUser(engine.db, { accountId }));
      const response = await post('/auth/logout', {}, { authorization: `Bearer ${tokens.access_token}` });
      expect(response.status).toBe(200);
      expect(response.headers.get('location')).toBeNull();
      const body = (await response.json()) as { message: string };
      expect(Object.keys(body)).toEqual(['message']);
      expect(body.message).toMatch(/revoked/);

      expect((await listAssets(tokens.access_token)).status).toBe(401);
      expect((await post('/auth/refresh', { refresh_token: tokens.refresh_token })).status).toBe(401);
      expect((await post('/auth/logout', {}, { authorization: `Bearer ${tokens.access_token}` })).status).toBe(401);
    });

    it('when the bearer is an account API token, then 400 and the token keeps working [DEC-AUTH-013]', async () => {
      const { token } = await createTestToken(engine.db, { accountId });
      const response = await fetch(`${app.baseUrl}/auth/logout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain(
        'DELETE /accounts/{accountId}/tokens/{tokenId}',
      );
      expect((await listAssets(token)).status).toBe(200);
    });

    it('when there is no bearer, then 401', async () => {
      const response = await fetch(`${app.baseUrl}/auth/logout`, { method: 'POST' });
      expect(response.status).toBe(401);
    });

    it('when one session logs out, then another session of the same user keeps working', async () => {
      const user = await createTestUser(engine.db, { accountId });
      const a = await signIn(user);
      const b = await signIn(user);
      expect((await post('/auth/logout', {}, { authorization: `Bearer ${a.access_token}` })).status).toBe(200);
      expect((await listAssets(b.access_token)).status).toBe(200);
    });
  });
});
