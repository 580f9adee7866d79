import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../auth/tokenHash.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { ALL_STATUSES, createTestAccount, createTestToken } from '../../test/support/fixtures.ts';
import { startTestApp } from '../../test/support/testApp.ts';
import { api, startWebhookHarness, type WebhookHarness } from '../../test/support/webhooks/harness.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;
const HOOK = 'https://93.184.215.14/hooks/content'; // a public literal IP: no DNS needed

/** Every string anywhere in a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describeEachEngine('token administration', (ctx) => {
  let h: WebhookHarness;
  const accountId = `acc-${randomUUID().slice(0, 8)}`;
  const otherAccountId = `oth-${randomUUID().slice(0, 8)}`;
  const orgs = [`${accountId} Tourism`, `${accountId} Museums`];
  let admin: string;
  let external: string;
  let otherAdmin: string;
  let superAdmin: string;
  /** Every secret or token value an answer revealed, to scan later answers and the logs for. */
  const revealed: string[] = [];

  beforeAll(async () => {
    // Secrets must not be found by the scan just because the key is unset: test the sealed path.
    h = await startWebhookHarness(ctx.db, { env: { WEBHOOK_SECRET_KEY: 'k'.repeat(40) } });
    await createTestAccount(ctx.db, { accountId, organisations: orgs });
    await createTestAccount(ctx.db, { accountId: otherAccountId, organisations: [`${otherAccountId} Org`] });
    // An admin seeing every status of the account: it may grant any filter (DEC-AUTH-010).
    admin = (await createTestToken(ctx.db, { accountId, roles: ['ROLE_ADMIN'], wfstatus: ALL_STATUSES })).token;
    external = (await createTestToken(ctx.db, { accountId, roles: ['ROLE_EXTERNAL_USER'] })).token;
    otherAdmin = (await createTestToken(ctx.db, { accountId: otherAccountId, roles: ['ROLE_ADMIN'] })).token;
    superAdmin = (await createTestToken(ctx.db, { accountId: otherAccountId, roles: ['ROLE_SUPER_ADMIN'] })).token;
  });
  afterAll(() => h.close());

  const as = (token: string) => api(h.app.baseUrl, token);
  const tokens = `/accounts/${accountId}/tokens`;
  async function create(body: Record<string, unknown>, token = admin) {
    const answer = await as(token).post(tokens, body);
    if (answer.body?.token) revealed.push(answer.body.token);
    if (answer.body?.signingSecret) revealed.push(answer.body.signingSecret);
    return answer;
  }
  async function put(id: string, body: Record<string, unknown>) {
    const answer = await as(admin).put(`${tokens}/${id}`, body);
    if (answer.body?.signingSecret) revealed.push(answer.body.signingSecret);
    return answer;
  }

  describe('POST /accounts/{accountId}/tokens', () => {
    it('when created with a callBackUrl, then 201 with the token value and a signing secret once, no-store, and the value stored only as a hash [TOKEN-001] [TOKEN-002] [TOKEN-003] [DEC-AUTH-006] [DEC-AUTH-007] [DEC-AUTH-009] [DEC-HOOK-001] [DEC-HOOK-009]', async () => {
      const answer = await create({
        name: 'sync',
        roles: ['ROLE_EXTERNAL_USER'],
        callBackUrl: HOOK,
        useOptimizedImages: true,
      });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'sync',
        roles: ['ROLE_EXTERNAL_USER'],
        callBackUrl: HOOK,
        created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        apiTokenFilter: {},
        filter: `userorganisations: ${[...orgs].sort().join(', ')}; wfstatus: approved`,
        useOptimizedImages: true,
        canWrite: false,
        hasSigningSecret: true,
        token: expect.stringMatching(/^cst_[A-Za-z0-9_-]{43}$/),
        signingSecret: expect.stringMatching(SECRET),
      });
      const { rows } = await ctx.db.query<{ token_hash: string; signing_secret: string }>(
        'SELECT token_hash, signing_secret FROM api_tokens WHERE id = $1',
        [answer.body.id],
      );
      expect(rows[0]!.token_hash).toBe(hashToken(answer.body.token));
      // Encrypted at rest: the stored value is not the secret and does not contain it.
      expect(rows[0]!.signing_secret).toMatch(/^enc:v1:/);
      expect(rows[0]!.signing_secret).not.toContain(answer.body.signingSecret);
      // The new value works as a bearer.
      expect((await as(answer.body.token).get('/accounts/x/tokens/y/deliveries')).status).toBe(403);
    });

    it('when created without a callBackUrl, then no secret and hasSigningSecret false [TOKEN-003]', async () => {
      const answer = await create({
        name: 'kiosk',
        roles: ['ROLE_EXTERNAL_USER'],
        apiTokenFilter: { userorganisations: [orgs[1]], wfstatus: ['approved', 'archived'] },
      });
      expect(answer.status).toBe(201);
      expect(answer.body.signingSecret).toBeUndefined();
      expect(answer.body.callBackUrl).toBeUndefined();
      expect(answer.body).toMatchObject({
        hasSigningSecret: false,
        useOptimizedImages: false,
        apiTokenFilter: { userorganisations: [orgs[1]], wfstatus: ['approved', 'archived'] },
        filter: `userorganisations: ${orgs[1]}; wfstatus: approved, archived`,
      });
    });

    it.each([
      ['ftp URL', 'ftp://93.184.215.14/x', 'https'],
      ['private address', 'https://10.1.2.3/hook', 'private'],
      ['metadata address', 'https://169.254.169.254/latest', 'linkLocal'],
      ['user info', 'https://user:pw@93.184.215.14/hook', 'user info'],
    ])('when the callBackUrl is a %s, then 400 naming callBackUrl [DEC-HOOK-002]', async (_what, url, reason) => {
      const answer = await create({ name: 'bad', roles: ['ROLE_EXTERNAL_USER'], callBackUrl: url });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toContain('callBackUrl');
      expect(answer.body.message).toContain(reason);
    });

    it('when insecure callbacks are off, then http and loopback URLs are refused, though allowed in this (insecure) app [DEC-HOOK-002]', async () => {
      const secure = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
      try {
        for (const url of ['http://93.184.215.14/hook', 'https://127.0.0.1:8443/hook', 'https://[::1]/hook']) {
          const answer = await api(secure.baseUrl, admin).post(tokens, {
            name: 'x',
            roles: ['ROLE_EXTERNAL_USER'],
            callBackUrl: url,
          });
          expect(answer.status, url).toBe(400);
          expect(answer.body.message, url).toContain('callBackUrl');
        }
      } finally {
        await secure.close();
      }
      const insecure = await create({
        name: 'dev',
        roles: ['ROLE_EXTERNAL_USER'],
        callBackUrl: 'http://127.0.0.1:9/hook',
      });
      expect(insecure.status).toBe(201);
      expect(insecure.body.callBackUrl).toBe('http://127.0.0.1:9/hook');
    });

    it('when an unknown field, a missing name or an empty roles list is sent, then 400 [DEC-AUTH-009]', async () => {
      expect((await create({ name: 'x', roles: ['ROLE_EXTERNAL_USER'], callbackUrl: HOOK })).status).toBe(400);
      expect((await create({ roles: ['ROLE_EXTERNAL_USER'] })).status).toBe(400);
      expect((await create({ name: 'x', roles: [] })).status).toBe(400);
    });

    it('when an admin grants ROLE_SUPER_ADMIN, then 403; a super admin may [DEC-AUTH-010]', async () => {
      expect((await create({ name: 'up', roles: ['ROLE_SUPER_ADMIN'] })).status).toBe(403);
      expect((await create({ name: 'admin', roles: ['ROLE_ADMIN'] })).status).toBe(201);
      expect((await create({ name: 'up', roles: ['ROLE_SUPER_ADMIN'] }, superAdmin)).status).toBe(201);
    });

    it('when the filter names an organisation of another account, then 400 [DEC-AUTH-010]', async () => {
      const answer = await create({
        name: 'x',
        roles: ['ROLE_EXTERNAL_USER'],
        apiTokenFilter: { userorganisations: [orgs[0], `${otherAccountId} Org`] },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.details[0].pointer).toBe('/apiTokenFilter/userorganisations/1');
    });
  });

  describe('PUT /accounts/{accountId}/tokens/{tokenId}', () => {
    it('when callBackUrl is omitted, then the webhook and secret are unchanged and only the fields present change [TOKEN-004] [DEC-AUTH-008]', async () => {
      const created = (await create({ name: 'a', roles: ['ROLE_EXTERNAL_USER'], callBackUrl: HOOK })).body;
      const before = await ctx.db.query<{ signing_secret: string }>(
        'SELECT signing_secret FROM api_tokens WHERE id = $1',
        [created.id],
      );
      const answer = await put(created.id, { name: 'renamed' });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.body).toMatchObject({
        name: 'renamed',
        roles: ['ROLE_EXTERNAL_USER'],
        callBackUrl: HOOK,
        hasSigningSecret: true,
        created: created.created,
      });
      expect(answer.body.signingSecret).toBeUndefined();
      expect(answer.body.token).toBeUndefined();
      const after = await ctx.db.query<{ signing_secret: string }>(
        'SELECT signing_secret FROM api_tokens WHERE id = $1',
        [created.id],
      );
      expect(after.rows[0]!.signing_secret).toBe(before.rows[0]!.signing_secret);
    });

    it('when a token answer is sent back as it came, read-only and once-shown fields included, then 200 and nothing changes [DEC-AUTH-009]', async () => {
      const created = (
        await create({
          name: 'round trip',
          roles: ['ROLE_EXTERNAL_USER'],
          callBackUrl: HOOK,
          apiTokenFilter: { wfstatus: ['approved', 'archived'] },
        })
      ).body;
      expect(created).toHaveProperty('token');
      expect(created).toHaveProperty('signingSecret');
      const answer = await put(created.id, created);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const { token: _token, signingSecret: _secret, ...view } = created;
      expect(answer.body).toEqual(view);
      expect((await put(created.id, answer.body)).body).toEqual(view);
      // Other unknown fields stay refused.
      expect((await put(created.id, { ...answer.body, callbackUrl: HOOK })).status).toBe(400);
    });

    it('when callBackUrl is "", then the webhook and its secret are removed [TOKEN-005]', async () => {
      const created = (await create({ name: 'a', roles: ['ROLE_EXTERNAL_USER'], callBackUrl: HOOK })).body;
      const answer = await put(created.id, { callBackUrl: '' });
      expect(answer.status).toBe(200);
      expect(answer.body.callBackUrl).toBeUndefined();
      expect(answer.body.hasSigningSecret).toBe(false);
      expect(answer.body.signingSecret).toBeUndefined();
      const { rows } = await ctx.db.query('SELECT callback_url, signing_secret FROM api_tokens WHERE id = $1', [
        created.id,
      ]);
      expect(rows[0]).toEqual({ callback_url: null, signing_secret: null });
    });

    it('when the callBackUrl changes, then the secret is kept and not shown [TOKEN-006] [TOKEN-007]', async () => {
      const created = (await create({ name: 'a', roles: ['ROLE_EXTERNAL_USER'], callBackUrl: HOOK })).body;
      const before = await ctx.db.query<{ signing_secret: string }>(
        'SELECT signing_secret FROM api_tokens WHERE id = $1',
        [created.id],
      );
      const moved = 'https://93.184.215.15/v2';
      const answer = await put(created.id, { callBackUrl: moved });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ callBackUrl: moved, hasSigningSecret: true });
      expect(answer.body.signingSecret).toBeUndefined();
      const after = await ctx.db.query<{ signing_secret: string }>(
        'SELECT signing_secret FROM api_tokens WHERE id = $1',
        [created.id],
      );
      expect(after.rows[0]!.signing_secret).toBe(before.rows[0]!.signing_secret);
    });

    it('when a callBackUrl is added to a token without one, then a secret is created and shown in that answer only [TOKEN-006] [TOKEN-008]', async () => {
      const created = (await create({ name: 'a', roles: ['ROLE_EXTERNAL_USER'] })).body;
      const answer = await put(created.id, { callBackUrl: HOOK });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.body).toMatchObject({
        callBackUrl: HOOK,
        hasSigningSecret: true,
        signingSecret: expect.stringMatching(SECRET),
      });
      const again = await put(created.id, { callBackUrl: HOOK });
      expect(again.body.signingSecret).toBeUndefined();
    });

    it('when the URL is invalid, then 400 and nothing changes [DEC-HOOK-002]', async () => {
      const created = (await create({ name: 'a', roles: ['ROLE_EXTERNAL_USER'], callBackUrl: HOOK })).body;
      const answer = await put(created.id, { callBackUrl: 'https://192.168.1.20/x', name: 'changed' });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toContain('callBackUrl');
      const { rows } = await ctx.db.query('SELECT name, callback_url FROM api_tokens WHERE id = $1', [created.id]);
      expect(rows[0]).toEqual({ name: 'a', callback_url: HOOK });
    });

    it('when roles and the filter are given, then they replace the old ones; an empty filter restores the defaults [DEC-AUTH-008] [DEC-AUTH-004]', async () => {
      const created = (
        await create({
          name: 'a',
          roles: ['ROLE_EXTERNAL_USER'],
          apiTokenFilter: { wfstatus: ['approved', 'deleted'] },
        })
      ).body;
      const answer = await put(created.id, { roles: ['ROLE_ADMIN'], apiTokenFilter: { userorganisations: [orgs[0]] } });
      expect(answer.body).toMatchObject({
        roles: ['ROLE_ADMIN'],
        apiTokenFilter: { userorganisations: [orgs[0]] },
        filter: `userorganisations: ${orgs[0]}; wfstatus: approved`,
      });
      const reset = await put(created.id, { apiTokenFilter: {} });
      expect(reset.body.apiTokenFilter).toEqual({});
      expect((await put(created.id, { roles: ['ROLE_SUPER_ADMIN'] })).status).toBe(403);
    });

    it('when an admin changes a super-admin token of its own account, then 403 [DEC-AUTH-010]', async () => {
      const top = (await create({ name: 'top', roles: ['ROLE_SUPER_ADMIN'] }, superAdmin)).body;
      expect((await put(top.id, { callBackUrl: HOOK })).status).toBe(403);
      expect((await as(admin).delete(`${tokens}/${top.id}`)).status).toBe(403);
      expect((await as(superAdmin).put(`${tokens}/${top.id}`, { name: 'top 2' })).status).toBe(200);
    });
  });

  describe('DELETE /accounts/{accountId}/tokens/{tokenId}', () => {
    it('when deleted, then 204, the token stops authenticating at once, and a second delete is 404 [TOKEN-009]', async () => {
      const created = (await create({ name: 'gone', roles: ['ROLE_ADMIN'] })).body;
      expect((await as(created.token).get(`${tokens}/${created.id}/deliveries`)).status).toBe(200);
      const answer = await as(admin).delete(`${tokens}/${created.id}`);
      expect(answer.status).toBe(204);
      expect(answer.text).toBe('');
      expect((await as(created.token).get(`${tokens}/${created.id}/deliveries`)).status).toBe(401);
      expect((await as(admin).delete(`${tokens}/${created.id}`)).status).toBe(404);
    });
  });

  describe('POST /accounts/{accountId}/tokens/{tokenId}/rotate-secret', () => {
    it('when rotated, then a new secret is shown once, differs from the old one, and the stored value changes [TOKEN-010] [DEC-HOOK-009]', async () => {
      const created = (await create({ name: 'rot', roles: ['ROLE_EXTERNAL_USER'], callBackUrl: HOOK })).body;
      const answer = await as(admin).post(`${tokens}/${created.id}/rotate-secret`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      revealed.push(answer.body.signingSecret);
      expect(answer.body).toMatchObject({
        id: created.id,
        hasSigningSecret: true,
        callBackUrl: HOOK,
        signingSecret: expect.stringMatching(SECRET),
      });
      expect(answer.body.signingSecret).not.toBe(created.signingSecret);
    });

    it('when the token has no callBackUrl, then 409 [TOKEN-011] [DEC-AUTH-011]', async () => {
      const created = (await create({ name: 'plain', roles: ['ROLE_EXTERNAL_USER'] })).body;
      const answer = await as(admin).post(`${tokens}/${created.id}/rotate-secret`);
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({
        status: 409,
        error: 'Conflict',
        message: expect.stringContaining('no callBackUrl'),
      });
    });

    it('when an older token has a callBackUrl but no secret, then rotate-secret gives it its first one [TOKEN-012]', async () => {
      const legacy = await createTestToken(ctx.db, { accountId, callbackUrl: HOOK });
      const answer = await as(admin).post(`${tokens}/${legacy.id}/rotate-secret`);
      expect(answer.status).toBe(200);
      revealed.push(answer.body.signingSecret);
      expect(answer.body).toMatchObject({ hasSigningSecret: true, signingSecret: expect.stringMatching(SECRET) });
    });
  });

  describe('who may call (401/403/404)', () => {
    const operations = (id: string) =>
      [
        ['POST', `/accounts/ACC/tokens`, { name: 'm', roles: ['ROLE_EXTERNAL_USER'] }],
        ['PUT', `/accounts/ACC/tokens/${id}`, { name: 'm' }],
        ['POST', `/accounts/ACC/tokens/${id}/rotate-secret`, undefined],
        ['GET', `/accounts/ACC/tokens/${id}/deliveries`, undefined],
        ['DELETE', `/accounts/ACC/tokens/${id}`, undefined],
      ] as const;

    it('when there is no or an unknown token, then 401 with WWW-Authenticate [AUTH-002] [DEC-ERR-002]', async () => {
      const id = (await create({ name: 't', roles: ['ROLE_EXTERNAL_USER'], callBackUrl: HOOK })).body.id;
      for (const [method, path, body] of operations(id)) {
        for (const client of [api(h.app.baseUrl), as('cst_unknownunknownunknownunknownunknownunknown1')]) {
          const answer = await client.call(method, path.replace('ACC', accountId), body);
          expect(answer.status, `${method} ${path}`).toBe(401);
          expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
        }
      }
    });

    it('when an external user calls, then 403 [TOKEN-013] [DEC-AUTH-005]', async () => {
      const id = (await create({ name: 't', roles: ['ROLE_EXTERNAL_USER'], callBackUrl: HOOK })).body.id;
      for (const [method, path, body] of operations(id)) {
        expect(
          (await as(external).call(method, path.replace('ACC', accountId), body)).status,
          `${method} ${path}`,
        ).toBe(403);
      }
    });

    it('when an admin of another account calls, then 404 and nothing changes [TOKEN-013] [DEC-ERR-002]', async () => {
      const id = (await create({ name: 't', roles: ['ROLE_EXTERNAL_USER'], callBackUrl: HOOK })).body.id;
      for (const [method, path, body] of operations(id)) {
        expect(
          (await as(otherAdmin).call(method, path.replace('ACC', accountId), body)).status,
          `${method} ${path}`,
        ).toBe(404);
      }
      const { rows } = await ctx.db.query('SELECT name FROM api_tokens WHERE id = $1', [id]);
      expect(rows[0]).toEqual({ name: 't' });
    });

    it('when a token id belongs to another account, then 404 even through the own account path [DEC-ERR-002]', async () => {
      const foreign = await createTestToken(ctx.db, { accountId: otherAccountId, callbackUrl: HOOK });
      for (const [method, path, body] of operations(foreign.id).slice(1)) {
        expect((await as(admin).call(method, path.replace('ACC', accountId), body)).status, `${method} ${path}`).toBe(
          404,
        );
      }
    });

    it('when the account is unknown, then 404 for a super admin too', async () => {
      expect(
        (await as(superAdmin).post('/accounts/no-such-account/tokens', { name: 'x', roles: ['ROLE_EXTERNAL_USER'] }))
          .status,
      ).toBe(404);
    });

    it('when the admin of the account or a super admin calls, then every operation succeeds [TOKEN-013]', async () => {
      for (const caller of [admin, superAdmin]) {
        const created = await create({ name: 'ok', roles: ['ROLE_EXTERNAL_USER'], callBackUrl: HOOK }, caller);
        expect(created.status).toBe(201);
        const id = created.body.id;
        const rotated = await as(caller).post(`${tokens}/${id}/rotate-secret`);
        revealed.push(rotated.body.signingSecret);
        expect(rotated.status).toBe(200);
        expect((await as(caller).put(`${tokens}/${id}`, { name: 'ok2' })).status).toBe(200);
        expect((await as(caller).get(`${tokens}/${id}/deliveries`)).status).toBe(200);
        expect((await as(caller).delete(`${tokens}/${id}`)).status).toBe(204);
      }
    });
  });

  describe('GET /accounts/{accountId}/tokens/{tokenId}/deliveries', () => {
    it('when size is out of range or an unknown parameter is sent, then 400 [DEC-HOOK-011]', async () => {
      const id = (await create({ name: 'd', roles: ['ROLE_EXTERNAL_USER'], callBackUrl: HOOK })).body.id;
      expect((await as(admin).get(`${tokens}/${id}/deliveries?size=101`)).status).toBe(400);
      expect((await as(admin).get(`${tokens}/${id}/deliveries?size=0`)).status).toBe(400);
      expect((await as(admin).get(`${tokens}/${id}/deliveries?page=-1`)).status).toBe(400);
      expect((await as(admin).get(`${tokens}/${id}/deliveries?state=failed`)).status).toBe(400);
      const empty = await as(admin).get(`${tokens}/${id}/deliveries?size=5&page=0`);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual([]);
    });
  });

  describe('secrets', () => {
    it('when every later answer is scanned, then no token value or signing secret appears again, and none is in the logs [TOKEN-002] [DEC-AUTH-006]', async () => {
      expect(revealed.length).toBeGreaterThan(10);
      const created = (await create({ name: 'scan', roles: ['ROLE_EXTERNAL_USER'], callBackUrl: HOOK })).body;
      const later = [
        await put(created.id, { name: 'scan 2' }),
        await put(created.id, { callBackUrl: 'https://93.184.215.16/x' }),
        await as(admin).get(`${tokens}/${created.id}/deliveries`),
        await as(admin).put(`${tokens}/${created.id}`, { name: 'bad', callBackUrl: 'https://10.0.0.1/' }),
      ];
      for (const answer of later) {
        for (const value of strings(answer.body)) {
          for (const secret of revealed) expect(value).not.toContain(secret);
        }
        expect(answer.body?.signingSecret).toBeUndefined();
        expect(answer.body?.token).toBeUndefined();
      }
      const logs = h.logs.text();
      for (const secret of revealed) expect(logs).not.toContain(secret);
    });
  });
});
