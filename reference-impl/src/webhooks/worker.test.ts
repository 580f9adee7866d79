import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine, type EngineContext } from '../../test/support/storage/testDb.ts';
import { ALL_STATUSES, createTestAccount, createTestToken } from '../../test/support/fixtures.ts';
import { verifySignature } from '../../test/support/webhooks/verifySignature.ts';
import {
  answer,
  startReceiver,
  type ReceivedRequest,
  type Receiver,
  type ReceiverHandler,
} from '../../test/support/webhooks/receiver.ts';
import type { WebhookServicesDeps } from './worker.ts';
import {
  api,
  createCallbackBodyValidator,
  startWebhookHarness,
  waitFor,
  writeItem,
  type WebhookHarness,
} from '../../test/support/webhooks/harness.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const validateBody = createCallbackBodyValidator();

interface Parsed {
  items: { id: string; trcid: string; resourceUri: string; resourceType: string; actionType: string }[];
}
const parse = (r: ReceivedRequest) => JSON.parse(r.body.toString('utf8')) as Parsed;
const header = (r: ReceivedRequest, name: string) => String(r.headers[name]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Answers with each status in turn, then `rest` for every later request. */
function sequence(statuses: readonly number[], rest = 204): ReceiverHandler {
  let n = 0;
  return (req, res, body) => answer(statuses[n++] ?? rest)(req, res, body);
}

/** One account with an admin token, and helpers to give it webhook tokens. */
async function newAccount(ctx: EngineContext, h: WebhookHarness, organisations = 1) {
  const accountId = `acc-${randomUUID().slice(0, 8)}`;
  const orgs = Array.from({ length: organisations }, (_, i) => `${accountId} org ${i}`);
  await createTestAccount(ctx.db, { accountId, organisations: orgs });
  const admin = (await createTestToken(ctx.db, { accountId, roles: ['ROLE_ADMIN'], wfstatus: ALL_STATUSES })).token;
  const client = api(h.app.baseUrl, admin);
  return {
    accountId,
    orgs,
    admin,
    client,
    /** A webhook token made through the API: its id, bearer value and signing secret. */
    async hookToken(url: string, body: Record<string, unknown> = {}) {
      const created = await client.post(`/accounts/${accountId}/tokens`, {
        name: 'hook',
        roles: ['ROLE_EXTERNAL_USER'],
        callBackUrl: url,
        canWrite: true,
        ...body,
      });
      expect(created.status).toBe(201);
      return created.body as { id: string; token: string; signingSecret: string };
    },
    async deliveries(tokenId: string) {
      const answer = await client.get(`/accounts/${accountId}/tokens/${tokenId}/deliveries`);
      expect(answer.status).toBe(200);
      return answer.body as {
        id: string;
        state: string;
        itemCount: number;
        nextAttemptAt?: string;
        attempts: { status: number | null; outcome: string; error?: string; latencyMs: number; at: string }[];
      }[];
    },
  };
}

describeEachEngine('webhook deliveries', (ctx) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const thing of open.splice(0).reverse()) await thing.close();
  });
  async function harness(env: Record<string, string> = {}, worker: WebhookServicesDeps['worker'] = {}) {
    const h = await startWebhookHarness(ctx.db, { env, worker });
    open.push(h);
    h.services.worker.start();
    return h;
  }
  async function receiver(handler?: ReceiverHandler) {
    const r = await startReceiver(handler);
    open.push(r);
    return r;
  }
  const write = (
    h: WebhookHarness,
    userorganisation: string,
    extra: Omit<Parameters<typeof writeItem>[2], 'userorganisation'> = {},
  ) => writeItem(ctx.db, h.services.recordItemChange, { userorganisation, ...extra });

  it('when an item is written, then one signed POST of the CallbackBody arrives with the delivery headers [HOOK-001] [HOOK-002] [HOOK-003] [HOOK-007] [HOOK-010] [HOOK-011] [HOOK-012] [HOOK-013] [DEC-HOOK-008]', async () => {
    const h = await harness();
    const r = await receiver();
    const account = await newAccount(ctx, h);
    const token = await account.hookToken(`${r.url}/hook?k=1`);
    const item = await write(h, account.orgs[0]!);

    const [request] = await waitFor('the delivery', () => r.requests.length >= 1 && r.requests);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hook?k=1');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['user-agent']).toBe('ContentService-Webhooks/1');
    expect(request!.headers['content-encoding']).toBeUndefined();
    expect(header(request!, 'x-service-delivery')).toMatch(UUID);
    const timestamp = header(request!, 'x-service-timestamp');
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(5);
    expect(header(request!, 'x-service-signature')).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(
      verifySignature({
        secret: token.signingSecret,
        timestamp,
        signature: header(request!, 'x-service-signature'),
        body: request!.body,
        nowSeconds: (Date.now() / 1000) | 0,
      }),
    ).toEqual({ ok: true });

    const body = parse(request!);
    expect(validateBody(body)).toBeNull();
    expect(body).toEqual({
      items: [
        {
          id: `${item.id}_EventUpdated`,
          trcid: item.trcid,
          resourceUri: `${h.app.baseUrl}/events/${item.id}`,
          resourceType: 'EVENT',
          actionType: 'UPDATED',
        },
      ],
    });

    const [delivery] = await waitFor(
      'the log entry',
      async () => (await account.deliveries(token.id))[0]?.state === 'delivered' && account.deliveries(token.id),
    );
    expect(delivery).toEqual({
      id: header(request!, 'x-service-delivery'),
      state: 'delivered',
      createdAt: expect.any(String),
      itemCount: 1,
      attempts: [{ at: expect.any(String), status: 204, latencyMs: expect.any(Number), outcome: 'delivered' }],
    });
  });

  it('when writes arrive while a delivery is in flight, then they wait and go together in the next POST, each item once [HOOK-007] [DEC-HOOK-004]', async () => {
    const h = await harness({ WEBHOOK_TIMEOUT: '5s' });
    let release: () => void = () => {};
    const r = await receiver((_req, res) => {
      if (r.requests.length === 1) release = () => res.writeHead(200).end();
      else res.writeHead(200).end();
    });
    const account = await newAccount(ctx, h);
    const token = await account.hookToken(`${r.url}/hook`);
    const first = await write(h, account.orgs[0]!);
    await waitFor('the first POST', () => r.requests.length === 1);
    const later: { id: string }[] = [];
    for (let i = 0; i < 20; i++)
      later.push(await write(h, account.orgs[0]!, { entitytype: i % 2 === 0 ? 'LOCATIE' : 'VENUE' }));
    await write(h, account.orgs[0]!, { id: later[0]!.id, entitytype: 'LOCATIE', action: 'DELETED' }); // a second change of one item
    await sleep(100);
    expect(r.requests).toHaveLength(1); // one in flight per token
    release();

    await waitFor('the batch', () => r.requests.length === 2);
    expect(parse(r.requests[0]!).items.map((i) => i.id)).toEqual([`${first.id}_EventUpdated`]);
    const batch = parse(r.requests[1]!);
    expect(validateBody(batch)).toBeNull();
    expect(batch.items).toHaveLength(20);
    expect(new Set(batch.items.map((i) => i.id.split('_')[0]))).toEqual(new Set(later.map((i) => i.id)));
    expect(batch.items.find((i) => i.id.startsWith(later[0]!.id))).toMatchObject({
      id: `${later[0]!.id}_LocationDeleted`,
      actionType: 'DELETED',
      resourceType: 'LOCATION',
    });
    expect(header(r.requests[1]!, 'x-service-delivery')).not.toBe(header(r.requests[0]!, 'x-service-delivery'));
    await sleep(100);
    expect(r.requests).toHaveLength(2);
    expect((await account.deliveries(token.id)).map((d) => d.itemCount)).toEqual([20, 1]); // newest first
  });

  it("when tokens have different organisation filters, then each receives only its organisations' items; a super admin hears all [HOOK-008] [DEC-AUTH-004]", async () => {
    const h = await harness();
    const a = await newAccount(ctx, h, 2);
    const b = await newAccount(ctx, h);
    const [ra, ra1, rb, rs] = [await receiver(), await receiver(), await receiver(), await receiver()];
    await a.hookToken(`${ra.url}/a`); // no filter: every organisation of its account
    await a.hookToken(`${ra1.url}/a1`, { apiTokenFilter: { userorganisations: [a.orgs[1]] } });
    await b.hookToken(`${rb.url}/b`);
    const sa = await createTestToken(ctx.db, { accountId: b.accountId, roles: ['ROLE_SUPER_ADMIN'] });
    const superHook = await api(h.app.baseUrl, sa.token).post(`/accounts/${b.accountId}/tokens`, {
      name: 'all',
      roles: ['ROLE_SUPER_ADMIN'],
      callBackUrl: `${rs.url}/all`,
    });
    expect(superHook.status).toBe(201);

    const inA0 = await write(h, a.orgs[0]!);
    const inA1 = await write(h, a.orgs[1]!);
    const inB = await write(h, b.orgs[0]!);
    const ids = (r: Receiver) => new Set(r.requests.flatMap((q) => parse(q).items.map((i) => i.id.split('_')[0])));
    await waitFor(
      'every delivery',
      () => ids(ra).size === 2 && ids(ra1).size === 1 && ids(rb).size === 1 && ids(rs).size >= 3,
    );
    await sleep(100);
    expect(ids(ra)).toEqual(new Set([inA0.id, inA1.id]));
    expect(ids(ra1)).toEqual(new Set([inA1.id]));
    expect(ids(rb)).toEqual(new Set([inB.id]));
    expect([inA0.id, inA1.id, inB.id].every((id) => ids(rs).has(id))).toBe(true);
    // It would hear every later test's writes too.
    expect(
      (await api(h.app.baseUrl, sa.token).delete(`/accounts/${b.accountId}/tokens/${superHook.body.id}`)).status,
    ).toBe(204);
  });

  it('when the receiver answers 5xx twice, then the third attempt delivers: same delivery id and bytes, a fresh valid signature each time [HOOK-012] [HOOK-013] [HOOK-018] [DEC-HOOK-005]', async () => {
    const h = await harness({ WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,1h' });
    // Each request moves the delivery clock 10 s on, so every attempt has its own timestamp.
    const seen: number[] = [];
    const statuses = sequence([500, 503]);
    const r = await receiver((req, res, body) => {
      seen.push(h.clock.now());
      h.clock.offsetMs += 10_000;
      statuses(req, res, body);
    });
    const account = await newAccount(ctx, h);
    const token = await account.hookToken(`${r.url}/hook`);
    await write(h, account.orgs[0]!);

    await waitFor('three attempts', () => r.requests.length === 3);
    expect(new Set(r.requests.map((q) => header(q, 'x-service-delivery'))).size).toBe(1);
    expect(r.requests.every((q) => q.body.equals(r.requests[0]!.body))).toBe(true);
    const timestamps = r.requests.map((q) => Number(header(q, 'x-service-timestamp')));
    expect(timestamps[1]! - timestamps[0]!).toBeGreaterThanOrEqual(9);
    expect(timestamps[2]! - timestamps[1]!).toBeGreaterThanOrEqual(9);
    r.requests.forEach((q, i) => {
      expect(
        verifySignature({
          secret: token.signingSecret,
          timestamp: header(q, 'x-service-timestamp'),
          signature: header(q, 'x-service-signature'),
          body: q.body,
          nowSeconds: Math.floor(seen[i]! / 1000),
        }),
      ).toEqual({ ok: true });
    });
    const [delivery] = await waitFor(
      'delivered',
      async () => (await account.deliveries(token.id))[0]?.state === 'delivered' && account.deliveries(token.id),
    );
    expect(delivery!.attempts.map((a) => [a.status, a.outcome])).toEqual([
      [500, 'transient'],
      [503, 'transient'],
      [204, 'delivered'],
    ]);
  });

  it('when the receiver sends no headers within WEBHOOK_TIMEOUT, then the attempt is transient and retried [HOOK-017] [HOOK-018] [DEC-HOOK-006]', async () => {
    // The horizon must outlast the 300 ms timeout, or the retry would fall after it.
    const h = await harness({ WEBHOOK_RETRY_SCHEDULE: '50ms,5s' });
    const r = await receiver((_req, res) => {
      if (r.requests.length > 1) res.writeHead(200).end(); /* else: stall */
    });
    const account = await newAccount(ctx, h);
    const token = await account.hookToken(`${r.url}/hook`);
    await write(h, account.orgs[0]!);
    const [delivery] = await waitFor(
      'delivered after a timeout',
      async () => (await account.deliveries(token.id))[0]?.state === 'delivered' && account.deliveries(token.id),
    );
    expect(delivery!.attempts).toEqual([
      {
        at: expect.any(String),
        status: null,
        latencyMs: expect.any(Number),
        error: 'no response headers within 300 ms',
        outcome: 'transient',
      },
      { at: expect.any(String), status: 200, latencyMs: expect.any(Number), outcome: 'delivered' },
    ]);
    expect(delivery!.attempts[0]!.latencyMs).toBeGreaterThanOrEqual(290);
    expect(header(r.requests[0]!, 'x-service-delivery')).toBe(header(r.requests[1]!, 'x-service-delivery'));
  });

  it.each([[400], [410], [429], [302]])(
    'when the receiver answers %i, then the delivery fails at once and is never retried; the token keeps working [HOOK-020] [DEC-HOOK-006]',
    async (status) => {
      const h = await harness();
      const r = await receiver(answer(status, status === 302 ? { location: 'http://169.254.169.254/' } : {}));
      const account = await newAccount(ctx, h);
      const token = await account.hookToken(`${r.url}/hook`);
      await write(h, account.orgs[0]!);
      const [delivery] = await waitFor(
        'failed',
        async () => (await account.deliveries(token.id))[0]?.state === 'failed' && account.deliveries(token.id),
      );
      expect(delivery!.attempts).toEqual([
        {
          at: expect.any(String),
          status,
          latencyMs: expect.any(Number),
          error: expect.stringContaining(`HTTP ${status}`),
          outcome: 'permanent',
        },
      ]);
      await sleep(250);
      expect(r.requests).toHaveLength(1);
      r.handle(answer(200));
      await write(h, account.orgs[0]!);
      await waitFor('the next change delivered', () => r.requests.length === 2);
    },
  );

  it('when the connection is refused, then every attempt is transient and retried until the schedule ends, then dropped [HOOK-018] [DEC-HOOK-006]', async () => {
    const h = await harness();
    const closed = await startReceiver();
    const url = `${closed.url}/hook`;
    await closed.close();
    const account = await newAccount(ctx, h);
    const token = await account.hookToken(url);
    await write(h, account.orgs[0]!);
    const [delivery] = await waitFor(
      'dropped',
      async () => (await account.deliveries(token.id))[0]?.state === 'dropped' && account.deliveries(token.id),
    );
    expect(delivery!.attempts).toHaveLength(3);
    for (const attempt of delivery!.attempts)
      expect(attempt).toMatchObject({
        status: null,
        outcome: 'transient',
        error: expect.stringContaining('ECONNREFUSED'),
      });
  });

  it('when every attempt fails until the schedule ends, then the delivery is dropped and recorded, and the token stays active [HOOK-018] [HOOK-019] [DEC-HOOK-005]', async () => {
    const h = await harness();
    const r = await receiver(answer(503));
    const account = await newAccount(ctx, h);
    const token = await account.hookToken(`${r.url}/hook`);
    await write(h, account.orgs[0]!);
    const [delivery] = await waitFor(
      'dropped',
      async () => (await account.deliveries(token.id))[0]?.state === 'dropped' && account.deliveries(token.id),
    );
    // '50ms,2s': a retry 50 ms after the first attempt and the last 2 s after the first.
    expect(delivery!.attempts.map((a) => a.status)).toEqual([503, 503, 503]);
    expect(delivery!.nextAttemptAt).toBeUndefined();
    const times = delivery!.attempts.map((a) => Date.parse(a.at));
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(45);
    expect(times[2]! - times[0]!).toBeGreaterThanOrEqual(2000);
    expect(times[2]! - times[0]!).toBeLessThan(3000);
    await sleep(200);
    expect(r.requests).toHaveLength(3);

    r.handle(answer(200));
    await write(h, account.orgs[0]!);
    await waitFor('the next change delivered', () => r.requests.length === 4);
    expect((await api(h.app.baseUrl, token.token).get('/actuator/health')).status).toBe(200);
    await waitFor(
      'the new delivery recorded as delivered',
      async () => (await account.deliveries(token.id))[0]!.state === 'delivered',
    );
  });

  it('when the secret is rotated between two attempts, then the retry verifies only with the new secret [TOKEN-010] [HOOK-011]', async () => {
    const h = await harness({ WEBHOOK_RETRY_SCHEDULE: '1s,1h' });
    const r = await receiver(sequence([503]));
    const account = await newAccount(ctx, h);
    const token = await account.hookToken(`${r.url}/hook`);
    await write(h, account.orgs[0]!);
    await waitFor('the first attempt', () => r.requests.length === 1);
    const rotated = await account.client.post(`/accounts/${account.accountId}/tokens/${token.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    await waitFor('the retry', () => r.requests.length === 2);
    const check = (q: ReceivedRequest, secret: string) =>
      verifySignature({
        secret,
        timestamp: header(q, 'x-service-timestamp'),
        signature: header(q, 'x-service-signature'),
        body: q.body,
        nowSeconds: (Date.now() / 1000) | 0,
      }).ok;
    expect(check(r.requests[0]!, token.signingSecret)).toBe(true);
    expect(check(r.requests[1]!, rotated.body.signingSecret)).toBe(true);
    expect(check(r.requests[1]!, token.signingSecret)).toBe(false);
    expect(header(r.requests[1]!, 'x-service-delivery')).toBe(header(r.requests[0]!, 'x-service-delivery'));
    const logs = h.logs.text();
    expect(logs).toContain(header(r.requests[0]!, 'x-service-delivery')); // the worker did log the delivery
    expect(logs).not.toContain(token.signingSecret);
    expect(logs).not.toContain(rotated.body.signingSecret);
  });

  it('when the worker is replaced in the middle of a retry (a restart), then the pending delivery arrives with the same X-Service-Delivery [HOOK-012] [HOOK-021]', async () => {
    const h = await harness({ WEBHOOK_RETRY_SCHEDULE: '1s,1h' });
    const r = await receiver(sequence([500]));
    const account = await newAccount(ctx, h);
    const token = await account.hookToken(`${r.url}/hook`);
    await write(h, account.orgs[0]!);
    await waitFor('the first attempt', () => r.requests.length === 1);
    await h.services.worker.stop();
    const pending = await account.deliveries(token.id);
    expect(pending[0]).toMatchObject({ state: 'pending', nextAttemptAt: expect.any(String) });

    (await h.replaceServices()).worker.start();
    await waitFor('the retry by the new worker', () => r.requests.length === 2);
    expect(header(r.requests[1]!, 'x-service-delivery')).toBe(header(r.requests[0]!, 'x-service-delivery'));
    expect(r.requests[1]!.body.equals(r.requests[0]!.body)).toBe(true);
  });

  it('when a worker dies with a delivery in flight, then after its lease runs out another worker sends the same delivery again [HOOK-021]', async () => {
    const h = await harness({}, { leaseMs: 600 });
    const r = await receiver((_req, res) => {
      if (r.requests.length > 1) res.writeHead(204).end(); /* first: hang */
    });
    const account = await newAccount(ctx, h);
    const token = await account.hookToken(`${r.url}/hook`);
    await write(h, account.orgs[0]!);
    await waitFor('the first attempt', () => r.requests.length === 1);
    // Abandon the attempt without recording anything, as a killed process would.
    await h.services.worker.stop({ deadlineMs: 0 });
    (await h.replaceServices({ leaseMs: 600 })).worker.start();
    await sleep(200);
    expect(r.requests).toHaveLength(1); // still leased
    await waitFor('the re-send', () => r.requests.length === 2, 3000);
    expect(header(r.requests[1]!, 'x-service-delivery')).toBe(header(r.requests[0]!, 'x-service-delivery'));
    const [delivery] = await waitFor(
      'delivered',
      async () => (await account.deliveries(token.id))[0]?.state === 'delivered' && account.deliveries(token.id),
    );
    expect(delivery!.attempts).toHaveLength(1); // the lost attempt was never recorded
  });

  it('when the token is deleted or its webhook removed while a delivery waits for a retry, then it is not sent any more [DEC-HOOK-010] [TOKEN-005]', async () => {
    const h = await harness({ WEBHOOK_RETRY_SCHEDULE: '1s,1h' });
    const r = await receiver(answer(503));
    const account = await newAccount(ctx, h);
    const deleted = await account.hookToken(`${r.url}/deleted`);
    const unhooked = await account.hookToken(`${r.url}/unhooked`);
    await write(h, account.orgs[0]!);
    await waitFor('both first attempts', () => r.requests.length === 2);
    expect((await account.client.delete(`/accounts/${account.accountId}/tokens/${deleted.id}`)).status).toBe(204);
    expect(
      (await account.client.put(`/accounts/${account.accountId}/tokens/${unhooked.id}`, { callBackUrl: '' })).status,
    ).toBe(200);
    await write(h, account.orgs[0]!);
    await sleep(1300); // past the retry that would have come
    expect(r.requests).toHaveLength(2);
    const { rows } = await ctx.db.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE state = 'pending' AND token_id = ANY($1::uuid[])`,
      [[deleted.id, unhooked.id]],
    );
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('when the webhook is gone while a delivery is in flight with changes queued behind it, then those changes are dropped, not sent or recorded as failed deliveries [DEC-HOOK-015]', async () => {
    // No idle polls: only the end of the attempt in flight wakes the worker, so no pass can see
    // the token without callBackUrl first.
    const h = await harness({ WEBHOOK_TIMEOUT: '5s' }, { pollMs: 60_000 });
    let release: () => void = () => {};
    const r = await receiver((_req, res) => {
      if (r.requests.length === 1) release = () => res.writeHead(204).end();
      else res.writeHead(204).end();
    });
    const account = await newAccount(ctx, h);
    const token = await account.hookToken(`${r.url}/hook`);
    await write(h, account.orgs[0]!);
    await waitFor('the first POST', () => r.requests.length === 1);
    for (let i = 0; i < 3; i++) await write(h, account.orgs[0]!);
    await sleep(400); // past the writes' nudges
    // As a write that saw the webhook just before its removal committed leaves it: changes queued,
    // the token without callBackUrl, the delivery in flight still pending.
    await ctx.db.query('UPDATE api_tokens SET callback_url = NULL WHERE id = $1', [token.id]);
    release();

    const queued = async () =>
      (
        await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_outbox WHERE token_id = $1', [
          token.id,
        ])
      ).rows[0]!.n;
    await waitFor('the queued changes dropped', async () => (await queued()) === 0);
    await sleep(100);
    expect(r.requests).toHaveLength(1);
    expect((await account.deliveries(token.id)).map((d) => ({ state: d.state, itemCount: d.itemCount }))).toEqual([
      { state: 'delivered', itemCount: 1 },
    ]);
  });

  it('when a token has a callBackUrl but no secret, then its delivery fails with the reason and nothing unsigned is sent [TOKEN-012]', async () => {
    const h = await harness();
    const r = await receiver();
    const account = await newAccount(ctx, h);
    const legacy = await createTestToken(ctx.db, { accountId: account.accountId, callbackUrl: `${r.url}/legacy` });
    await write(h, account.orgs[0]!);
    const [delivery] = await waitFor(
      'failed',
      async () => (await account.deliveries(legacy.id))[0]?.state === 'failed' && account.deliveries(legacy.id),
    );
    expect(delivery!.attempts[0]).toMatchObject({
      status: null,
      outcome: 'permanent',
      error: expect.stringContaining('rotate-secret'),
    });
    expect(r.requests).toHaveLength(0);
  });

  it('when the worker stops, then it stops claiming; writes made meanwhile are delivered by the next worker', async () => {
    const h = await harness();
    const r = await receiver();
    const account = await newAccount(ctx, h);
    await account.hookToken(`${r.url}/hook`);
    await h.services.worker.stop();
    expect(h.services.worker.running).toBe(false);
    const item = await write(h, account.orgs[0]!);
    await sleep(150);
    expect(r.requests).toHaveLength(0);
    (await h.replaceServices()).worker.start();
    await waitFor('the delivery', () => r.requests.length === 1);
    expect(parse(r.requests[0]!).items[0]!.id).toBe(`${item.id}_EventUpdated`);
  });

  describe('through the item and asset routes', () => {
    const writer = (token: string) => api(h.app.baseUrl, token);
    let h: WebhookHarness;
    beforeAll(async () => {
      h = await startWebhookHarness(ctx.db);
      h.services.worker.start();
    });
    afterAll(() => h.close());

    it('when an item is created and deleted over HTTP, then UPDATED then DELETED arrive, and the resourceUri of the deleted item answers 404 [HOOK-004] [HOOK-006] [DEC-HOOK-003]', async () => {
      const r = await receiver();
      const account = await newAccount(ctx, h);
      const hook = await account.hookToken(`${r.url}/hook`, {
        apiTokenFilter: { wfstatus: ['approved', 'readyforvalidation'] },
      });
      const writer = api(h.app.baseUrl, hook.token);
      const created = await writer.post('/events', {
        wfstatus: 'approved',
        trcItemDetails: [{ lang: 'nl', title: 'Webhook test' }],
      });
      expect(created.status).toBe(201);
      await waitFor('UPDATED', () =>
        r.requests.some((q) => parse(q).items.some((i) => i.id === `${created.body.id}_EventUpdated`)),
      );
      const uri = parse(r.requests.at(-1)!).items[0]!.resourceUri;
      expect(uri).toBe(`${h.app.baseUrl}/events/${created.body.id}`);
      expect((await fetch(uri, { headers: { authorization: `Bearer ${hook.token}` } })).status).toBe(200);

      expect((await writer.delete(`/events/${created.body.id}`)).status).toBe(204);
      await waitFor('DELETED', () =>
        r.requests.some((q) => parse(q).items.some((i) => i.id === `${created.body.id}_EventDeleted`)),
      );
      const deleted = parse(r.requests.at(-1)!).items.find((i) => i.id === `${created.body.id}_EventDeleted`)!;
      expect(deleted).toMatchObject({ actionType: 'DELETED', resourceType: 'EVENT', resourceUri: uri });
      expect((await fetch(deleted.resourceUri, { headers: { authorization: `Bearer ${hook.token}` } })).status).toBe(
        404,
      );
    });

    it('when an asset is uploaded and changed, then no webhook is sent; an item write right after is [HOOK-009]', async () => {
      const r = await receiver();
      const account = await newAccount(ctx, h);
      const hook = await account.hookToken(`${r.url}/hook`);
      const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#c00' } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'dot.png');
      const upload = await fetch(`${h.app.baseUrl}/assets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hook.token}` },
        body: form,
      });
      expect(upload.status).toBe(201);
      const asset = (await upload.json()) as { id: string };
      expect((await api(h.app.baseUrl, hook.token).put(`/assets/${asset.id}`, { title: 'Dot' })).status).toBe(200);
      const item = await writer(hook.token).post('/events', {
        trcItemDetails: [{ lang: 'nl', title: 'After the asset' }],
      });
      expect(item.status).toBe(201);
      await waitFor('the item', () => r.requests.length >= 1);
      await sleep(100);
      const ids = r.requests.flatMap((q) => parse(q).items.map((i) => i.id));
      expect(ids).toEqual([`${item.body.id}_EventUpdated`]);
    });
  });
});

describeEachEngine(
  'webhook deliveries with several workers on one PostgreSQL',
  (ctx) => {
    it('when two workers share the database, then every change is delivered, no delivery is sent twice, and a token never has two requests in flight', async () => {
      const { openPostgresDb } = await import('../storage/postgresDb.ts');
      const { TEST_DATABASE_URL } = await import('../../test/support/storage/testDb.ts');
      const schema = (await ctx.db.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
      const secondDb = await openPostgresDb({ connectionString: TEST_DATABASE_URL, searchPath: schema, max: 4 });
      const one = await startWebhookHarness(ctx.db);
      const two = await startWebhookHarness(secondDb);
      const inFlight = new Map<string, number>();
      let overlap = 0;
      const r = await startReceiver((req, res) => {
        const path = req.url ?? '';
        inFlight.set(path, (inFlight.get(path) ?? 0) + 1);
        if (inFlight.get(path)! > 1) overlap += 1;
        setTimeout(() => {
          inFlight.set(path, inFlight.get(path)! - 1);
          res.writeHead(204).end();
        }, 5);
      });
      try {
        one.services.worker.start();
        two.services.worker.start();
        const account = await newAccount(ctx, one);
        const tokens = [];
        for (let i = 0; i < 5; i++) tokens.push(await account.hookToken(`${r.url}/t${i}`));
        const written: string[] = [];
        // Writes through both instances' outboxes, interleaved.
        await Promise.all(
          Array.from({ length: 4 }, async (_, w) => {
            for (let i = 0; i < 25; i++) {
              const via = (i + w) % 2 === 0 ? one : two;
              written.push(
                (
                  await writeItem(via === one ? ctx.db : secondDb, via.services.recordItemChange, {
                    userorganisation: account.orgs[0]!,
                  })
                ).id,
              );
            }
          }),
        );
        const received = () => r.requests.flatMap((q) => parse(q).items.map((i) => `${q.path} ${i.id.split('_')[0]}`));
        await waitFor(
          'every item at every token',
          () => new Set(received()).size === written.length * tokens.length,
          15_000,
        );
        await sleep(200);
        const deliveryIds = r.requests.map((q) => header(q, 'x-service-delivery'));
        expect(new Set(deliveryIds).size).toBe(deliveryIds.length);
        expect(received()).toHaveLength(written.length * tokens.length);
        expect(overlap).toBe(0);
      } finally {
        await one.close();
        await two.close();
        await r.close();
        await secondDb.close();
      }
    });
  },
  ['postgres'],
);
