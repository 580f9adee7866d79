import dns, { type LookupAddress } from 'node:dns';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeEachEngine } from '../support/storage/testDb.ts';
import { ALL_STATUSES, createTestAccount, createTestToken } from '../support/fixtures.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { startWebhookHarness, waitFor, writeItem, type WebhookHarness } from '../support/webhooks/harness.ts';
import { rawClient, type RawAnswer, type RawClient } from '../support/security/rawHttp.ts';

// SSRF at the HTTP level (OWASP API7; DEC-HOOK-002): registering a callBackUrl through the token
// endpoints, with ALLOW_INSECURE_CALLBACKS off, refuses every scheme, user info, host and address
// form below with a 400 naming the reason, and the token keeps its old URL. The address rules
// themselves are unit-tested in webhooks/ssrfGuard.test.ts and webhooks/callbackUrl.test.ts; DNS
// rebinding between registration and delivery at the connection level in ssrfGuard.test.ts
// ("when DNS rebinds between registration and delivery ..."). What is added here: the same
// rules through POST and PUT of the HTTP API, and one rebinding end to end through the worker.

const PUBLIC = 'https://93.184.215.14/hooks/content';

/** Names the tests resolve; everything else goes to the real resolver (localhost from /etc/hosts). */
const FAKE_DNS: Record<string, LookupAddress[]> = {
  'intranet.ssrf.test': [{ address: '10.1.2.3', family: 4 }],
  'metadata.ssrf.test': [{ address: '169.254.169.254', family: 4 }],
  'mixed.ssrf.test': [
    { address: '93.184.215.14', family: 4 },
    { address: 'fd00::1', family: 6 },
  ],
  'mapped.ssrf.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
  'public.ssrf.test': [{ address: '93.184.215.14', family: 4 }],
};

const realLookup = dns.promises.lookup.bind(dns.promises);
function fakeDns(table: Record<string, LookupAddress[]>) {
  return vi.spyOn(dns.promises, 'lookup').mockImplementation((async (hostname: string, options?: unknown) => {
    const answer = table[hostname];
    if (answer !== undefined) return answer;
    return realLookup(hostname, options as dns.LookupAllOptions);
  }) as typeof dns.promises.lookup);
}

/** URL → the words the 400 must contain. */
const REFUSED: Array<[string, string]> = [
  ['http://93.184.215.14/hooks', 'callBackUrl'],
  ['ftp://93.184.215.14/hooks', 'callBackUrl'],
  ['https://user:secret@93.184.215.14/hooks', 'must not contain user info'],
  ['https://token@93.184.215.14/hooks', 'must not contain user info'],
  [`https://93.184.215.14/${'a'.repeat(2048)}`, 'more than 2048 characters'],
  ['https://localhost/hooks', 'localhost must resolve to public addresses only'],
  ['https://127.0.0.1/hooks', '127.0.0.1 is a loopback address'],
  ['https://127.255.255.254:8443/hooks', 'loopback'],
  ['https://[::1]/hooks', '::1 is a loopback address'],
  ['https://0.0.0.0/hooks', 'unspecified'],
  ['https://0/hooks', 'unspecified'],
  ['https://[::]/hooks', 'unspecified'],
  ['https://10.0.0.1/hooks', '10.0.0.1 is a private address'],
  ['https://10.255.255.255/hooks', 'private'],
  ['https://172.16.0.1/hooks', '172.16.0.1 is a private address'],
  ['https://172.31.255.254/hooks', 'private'],
  ['https://192.168.1.10/hooks', '192.168.1.10 is a private address'],
  ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 is a linkLocal address'],
  ['https://100.64.0.1/hooks', 'carrierGradeNat'],
  ['https://224.0.0.1/hooks', 'multicast'],
  ['https://255.255.255.255/hooks', 'broadcast'],
  ['https://[::ffff:127.0.0.1]/hooks', 'IPv4-mapped address (of 127.0.0.1)'],
  ['https://[::ffff:169.254.169.254]/hooks', 'IPv4-mapped address (of 169.254.169.254)'],
  ['https://[::ffff:a01:203]/hooks', 'IPv4-mapped address (of 10.1.2.3)'],
  ['https://[fc00::1]/hooks', 'uniqueLocal'],
  ['https://[fd12:3456::1]/hooks', 'uniqueLocal'],
  ['https://[fe80::1]/hooks', 'linkLocal'],
  ['https://[64:ff9b::a9fe:a9fe]/hooks', 'rfc6052'],
  ['https://[2002:7f00:1::]/hooks', '6to4 address embedding 127.0.0.1'],
  // Other spellings of 127.0.0.1 that the URL parser normalises before the check.
  ['https://2130706433/hooks', '127.0.0.1 is a loopback address'],
  ['https://0x7f000001/hooks', '127.0.0.1 is a loopback address'],
  ['https://0x7f.0.0.1/hooks', '127.0.0.1 is a loopback address'],
  ['https://0177.0.0.1/hooks', '127.0.0.1 is a loopback address'],
  ['https://127.1/hooks', '127.0.0.1 is a loopback address'],
  ['https://127.0.0.1./hooks', '127.0.0.1 is a loopback address'],
  ['https://LOCALHOST/hooks', 'localhost must resolve to public addresses only'],
  // not ASCII: refused by the schema's uri format before the host is even looked at
  ['https://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/hooks', '/callBackUrl must match format "uri"'],
  // Names that resolve to internal addresses.
  [
    'https://intranet.ssrf.test/hooks',
    'intranet.ssrf.test must resolve to public addresses only: 10.1.2.3 is a private address',
  ],
  ['https://metadata.ssrf.test/hooks', '169.254.169.254 is a linkLocal address'],
  ['https://mixed.ssrf.test/hooks', 'fd00::1 is a uniqueLocal address'],
  ['https://mapped.ssrf.test/hooks', 'IPv4-mapped'],
  ['https://no-such-host.invalid/hooks', 'does not resolve'],
];

describeEachEngine('callBackUrl registration refuses internal targets over HTTP', (ctx) => {
  let app: TestApp;
  let http: RawClient;
  const accountId = 'ssrf-account';
  let admin: string;
  let existing: string;

  beforeAll(async () => {
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    expect(app.config.allowInsecureCallbacks).toBe(false);
    http = rawClient(app.baseUrl);
    await createTestAccount(ctx.db, { accountId, organisations: ['ssrf-org'] });
    admin = (await createTestToken(ctx.db, { accountId, roles: ['ROLE_ADMIN'], wfstatus: ALL_STATUSES })).token;
    existing = (
      await createTestToken(ctx.db, {
        accountId,
        roles: ['ROLE_EXTERNAL_USER'],
        callbackUrl: PUBLIC,
        signingSecret: 'k'.repeat(43),
      })
    ).id;
  });
  afterAll(async () => {
    await http?.close();
    await app?.close();
  });
  beforeEach(() => {
    fakeDns(FAKE_DNS);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const send = (method: string, path: string, body: unknown): Promise<RawAnswer> =>
    http.send({
      method,
      path,
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it.each(REFUSED)(
    'when callBackUrl is %s, then POST and PUT answer 400 saying "%s" and the token keeps its URL',
    async (url, reason) => {
      const created = await send('POST', `/accounts/${accountId}/tokens`, {
        name: 'ssrf',
        roles: ['ROLE_EXTERNAL_USER'],
        callBackUrl: url,
      });
      expect(created.status, created.body.toString()).toBe(400);
      expect((created.json as { message: string }).message).toContain(reason);
      const updated = await send('PUT', `/accounts/${accountId}/tokens/${existing}`, { callBackUrl: url });
      expect(updated.status, updated.body.toString()).toBe(400);
      expect((updated.json as { message: string }).message).toContain(reason);
      const { rows } = await ctx.db.query<{ callback_url: string }>(
        'SELECT callback_url FROM api_tokens WHERE id = $1',
        [existing],
      );
      expect(rows[0]!.callback_url).toBe(PUBLIC);
    },
  );

  it.each([PUBLIC, 'https://public.ssrf.test/hooks', 'https://[2606:4700:4700::1111]:8443/hooks'])(
    'when callBackUrl is the public %s, then it is accepted (the control)',
    async (url) => {
      const created = await send('POST', `/accounts/${accountId}/tokens`, {
        name: 'public',
        roles: ['ROLE_EXTERNAL_USER'],
        callBackUrl: url,
      });
      expect(created.status, created.body.toString()).toBe(201);
    },
  );

  describe('with ALLOW_INSECURE_CALLBACKS on (local development)', () => {
    let insecure: TestApp;
    beforeAll(async () => {
      insecure = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false', ALLOW_INSECURE_CALLBACKS: 'true' } });
    });
    afterAll(async () => {
      await insecure?.close();
    });

    it.each([
      ['https://169.254.169.254/latest/meta-data/', 'linkLocal'],
      ['http://10.0.0.1/hooks', 'private'],
      ['http://[::ffff:169.254.169.254]/', 'IPv4-mapped'],
      ['http://intranet.ssrf.test/hooks', 'private'],
      ['http://[fd00::1]/', 'uniqueLocal'],
    ])('when callBackUrl is %s, then it is still refused: only loopback opens up (%s)', async (url, reason) => {
      const client = rawClient(insecure.baseUrl);
      try {
        const answer = await client.send({
          method: 'POST',
          path: `/accounts/${accountId}/tokens`,
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'dev', roles: ['ROLE_EXTERNAL_USER'], callBackUrl: url }),
        });
        expect(answer.status).toBe(400);
        expect((answer.json as { message: string }).message).toContain(reason);
      } finally {
        await client.close();
      }
    });
  });
});

describeEachEngine('DNS rebinding after registration, end to end', (ctx) => {
  let h: WebhookHarness;

  beforeAll(async () => {
    h = await startWebhookHarness(ctx.db, { env: { ALLOW_INSECURE_CALLBACKS: 'false' } });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await h?.close();
  });

  it('when a name resolved to a public address at registration and to loopback at delivery, then the worker refuses the connection: the delivery fails as blocked and is not retried (DEC-HOOK-002, DEC-HOOK-006)', async () => {
    const accountId = 'rebind-account';
    await createTestAccount(ctx.db, { accountId, organisations: ['rebind-org'] });
    const admin = (await createTestToken(ctx.db, { accountId, roles: ['ROLE_ADMIN'], wfstatus: ALL_STATUSES })).token;
    const table: Record<string, LookupAddress[]> = { 'rebind.ssrf.test': [{ address: '93.184.215.14', family: 4 }] };
    fakeDns(table);
    const http = rawClient(h.app.baseUrl);
    try {
      const created = await http.send({
        method: 'POST',
        path: `/accounts/${accountId}/tokens`,
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'rebinding',
          roles: ['ROLE_EXTERNAL_USER'],
          callBackUrl: 'https://rebind.ssrf.test/hooks',
        }),
      });
      expect(created.status, created.body.toString()).toBe(201);
      const tokenId = (created.json as { id: string }).id;

      table['rebind.ssrf.test'] = [{ address: '127.0.0.1', family: 4 }];
      h.services.worker.start();
      await writeItem(ctx.db, h.services.recordItemChange, { userorganisation: 'rebind-org' });
      const deliveries = async () =>
        (
          await http.send({
            method: 'GET',
            path: `/accounts/${accountId}/tokens/${tokenId}/deliveries`,
            headers: { authorization: `Bearer ${admin}` },
          })
        ).json as Array<{ state: string; attempts: Array<{ error?: string }> }>;
      const [delivery] = await waitFor(
        'the refused attempt',
        async () => {
          const list = await deliveries();
          return list[0]?.state === 'failed' ? list : undefined;
        },
        10_000,
      );
      expect(delivery!.attempts).toHaveLength(1);
      expect(delivery!.attempts[0]!.error).toMatch(
        /blocked address: rebind\.ssrf\.test: 127\.0\.0\.1 is a loopback address/,
      );
    } finally {
      await http.close();
    }
  });
});
