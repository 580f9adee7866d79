import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '../../client/webhooks/verify.ts';
import { startReceiver } from '../receiver/receiver.ts';
import type { Receiver } from '../receiver/receiver.ts';
import { sendJson, startServer } from '../test/startServer.ts';
import type { TestServer } from '../test/startServer.ts';
import { startFaultProxy } from './faultProxy.ts';
import type { FaultProxy } from './faultProxy.ts';
import {
  exclusiveLastupdated,
  flipPublishedBoolean,
  omitRetryAfter,
  retryAfter4xx,
  signWithoutTimestamp,
} from './modifiers/index.ts';

const items = [
  { trcid: 'a', lastupdated: '2026-11-01T10:00:00.000Z', published: true, wfstatus: 'approved' },
  { trcid: 'b', lastupdated: '2026-11-01T10:00:00.500Z', published: false, wfstatus: 'archived' },
];

let upstream: TestServer | undefined;
let proxy: FaultProxy | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await proxy?.close();
  await upstream?.close();
  await receiver?.close();
  proxy = upstream = receiver = undefined;
});

async function upstreamApi() {
  upstream = await startServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/api/events') return sendJson(res, 200, items, { 'x-seen-path': url.pathname + url.search });
    if (url.pathname === '/api/events/a') return sendJson(res, 200, items[0]);
    if (url.pathname === '/api/limited')
      return sendJson(
        res,
        429,
        { status: 429, error: 'Too Many Requests', message: 'slow' },
        { 'retry-after': '1', 'x-ratelimit-limit': '20' },
      );
    sendJson(res, 404, { status: 404 });
  });
  return `${upstream.url}/api`;
}

async function get(url: string) {
  const res = await request(url);
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as unknown };
}

describe('startFaultProxy', () => {
  it('when no modifier applies, then traffic passes through unchanged, base path included', async () => {
    proxy = await startFaultProxy({ target: await upstreamApi(), modifiers: [omitRetryAfter()] });
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    const res = await get(`${proxy.url}/events?size=2`);
    expect(res).toMatchObject({ status: 200, body: items });
    expect(res.headers['x-seen-path']).toBe('/api/events?size=2');
    expect(proxy.applied.size).toBe(0);
  });

  it('when omitRetryAfter is on, then a 429 loses Retry-After and keeps everything else', async () => {
    proxy = await startFaultProxy({ target: await upstreamApi(), modifiers: [omitRetryAfter()] });
    const res = await get(`${proxy.url}/limited`);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(res.headers['x-ratelimit-limit']).toBe('20');
    expect(proxy.applied.get('omitRetryAfter')).toBe(1);
  });

  it('when exclusiveLastupdated is on, then the boundary item disappears from a lastupdated query only', async () => {
    proxy = await startFaultProxy({ target: await upstreamApi(), modifiers: [exclusiveLastupdated()] });
    expect((await get(`${proxy.url}/events?lastupdated=2026-11-01T10:00:00Z`)).body).toEqual([items[1]]);
    expect((await get(`${proxy.url}/events?lastupdated=2026-11-01T09:00:00Z`)).body).toEqual(items);
    expect((await get(`${proxy.url}/events`)).body).toEqual(items);
    expect(proxy.applied.get('exclusiveLastupdated')).toBe(1);
  });

  it('when flipPublishedBoolean is on, then lists and details carry the opposite boolean', async () => {
    proxy = await startFaultProxy({ target: await upstreamApi(), modifiers: [flipPublishedBoolean()] });
    expect(((await get(`${proxy.url}/events`)).body as { published: boolean }[]).map((i) => i.published)).toEqual([
      false,
      true,
    ]);
    expect(((await get(`${proxy.url}/events/a`)).body as { published: boolean }).published).toBe(false);
  });

  it('when modifiers are composed, then each applies in order', async () => {
    proxy = await startFaultProxy({
      target: await upstreamApi(),
      modifiers: [exclusiveLastupdated(), flipPublishedBoolean()],
    });
    expect((await get(`${proxy.url}/events?lastupdated=2026-11-01T10:00:00.000Z`)).body).toEqual([
      { ...items[1], published: true },
    ]);
    expect([...proxy.applied.keys()].sort()).toEqual(['exclusiveLastupdated', 'flipPublishedBoolean']);
  });
});

describe('startFaultProxy between target and receiver', () => {
  const SECRET = 'proxy-test-secret-abcdefghijklmnopqrstuvwxyz012';

  async function deliver(url: string, body: string) {
    const ts = Math.floor(Date.now() / 1000);
    const res = await request(url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'x-service-timestamp': String(ts),
        'x-service-signature': signWebhook(SECRET, ts, body),
        'x-service-delivery': '0d5a1c7e-2f4b-4c3a-9e8d-7b6a5c4d3e2f',
      },
    });
    await res.body.dump();
    return res.statusCode;
  }

  it('when signWithoutTimestamp is on, then the receiver sees a signature that no longer verifies', async () => {
    receiver = await startReceiver();
    proxy = await startFaultProxy({
      target: 'http://127.0.0.1:9/api',
      modifiers: [signWithoutTimestamp(() => SECRET)],
      webhookTarget: receiver.localUrl,
    });
    const endpoint = receiver.endpoint('signed');
    endpoint.setSecret(SECRET);
    expect(await deliver(`${proxy.webhookUrl}${endpoint.path}`, '{"items":[]}')).toBe(200);
    const d = endpoint.deliveries[0]!;
    expect(d.rawBody.toString()).toBe('{"items":[]}');
    expect(d.verification).toMatchObject({ ok: false, reason: 'signature_mismatch' });
    // The fault signs the body alone, without "<timestamp>.".
    expect(d.headers['x-service-signature']).toBe(
      `sha256=${createHmac('sha256', SECRET).update(d.rawBody).digest('hex')}`,
    );
    expect(verifyWebhook(d.rawBody, d.headers, SECRET).ok).toBe(false);
  });

  it('when retryAfter4xx is on, then a delivery refused with 4xx arrives again with the same delivery id', async () => {
    receiver = await startReceiver();
    proxy = await startFaultProxy({
      target: 'http://127.0.0.1:9/api',
      modifiers: [retryAfter4xx(50)],
      webhookTarget: receiver.localUrl,
    });
    const endpoint = receiver.endpoint('refusing');
    endpoint.respondWith([410]);
    expect(await deliver(`${proxy.webhookUrl}${endpoint.path}`, '{"items":[1]}')).toBe(410);
    const [first, second] = await endpoint.waitForCount(2, 2000);
    expect(second!.headers['x-service-delivery']).toBe(first!.headers['x-service-delivery']);
    expect(second!.rawBody.equals(first!.rawBody)).toBe(true);
  });

  it('when the receiver answers 2xx, then retryAfter4xx sends nothing more', async () => {
    receiver = await startReceiver();
    proxy = await startFaultProxy({
      target: 'http://127.0.0.1:9/api',
      modifiers: [retryAfter4xx(20)],
      webhookTarget: receiver.localUrl,
    });
    const endpoint = receiver.endpoint('happy');
    await deliver(`${proxy.webhookUrl}${endpoint.path}`, '{}');
    await endpoint.expectNone(200);
    expect(endpoint.deliveries).toHaveLength(1);
  });
});

describe('startFaultProxy: tools for modifiers', () => {
  it('when setModifiers swaps the faults, then the next request sees only the new ones and applied starts over', async () => {
    proxy = await startFaultProxy({ target: await upstreamApi(), modifiers: [flipPublishedBoolean()] });
    await get(`${proxy.url}/events`);
    expect(proxy.applied.get('flipPublishedBoolean')).toBe(1);
    proxy.setModifiers([]);
    expect(proxy.applied.size).toBe(0);
    expect((await get(`${proxy.url}/events`)).body).toEqual(items);
    expect(proxy.applied.size).toBe(0);
  });

  it('when a request modifier sets an answer, then the target is not asked and response modifiers still apply', async () => {
    const target = await upstreamApi();
    proxy = await startFaultProxy({
      target,
      modifiers: [
        {
          name: 'answer',
          request: (req) => ({
            ...req,
            answer: {
              status: 200,
              headers: { 'content-type': 'application/json' },
              body: Buffer.from(JSON.stringify([{ trcid: 'z', published: true }])),
            },
          }),
        },
        flipPublishedBoolean(),
      ],
    });
    const res = await get(`${proxy.url}/never-asked`);
    expect(res).toMatchObject({ status: 200, body: [{ trcid: 'z', published: false }] });
    expect(res.headers['x-seen-path']).toBeUndefined();
  });

  it("when a modifier asks the target itself, then it gets the target's answer", async () => {
    proxy = await startFaultProxy({
      target: await upstreamApi(),
      modifiers: [
        {
          name: 'count',
          async response(res, req, tools) {
            const all = await tools.upstream({ ...req, url: '/api/events' });
            return {
              ...res,
              headers: { ...res.headers, 'x-total': String((JSON.parse(all.body.toString()) as unknown[]).length) },
            };
          },
        },
      ],
    });
    expect((await get(`${proxy.url}/events/a`)).headers['x-total']).toBe('2');
  });
});

describe('startFaultProxy: delivery leg', () => {
  async function post(url: string) {
    const res = await request(url, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json', 'x-service-delivery': '0d5a1c7e-2f4b-4c3a-9e8d-7b6a5c4d3e2f' },
    });
    await res.body.dump();
    return res.statusCode;
  }

  it('when a delivery modifier swallows a delivery, then the target gets that status and the receiver nothing', async () => {
    receiver = await startReceiver();
    proxy = await startFaultProxy({
      target: 'http://127.0.0.1:9/api',
      modifiers: [{ name: 'lose', delivery: (d) => ({ ...d, swallow: 200 }) }],
      webhookTarget: receiver.localUrl,
    });
    const endpoint = receiver.endpoint('lost');
    expect(await post(`${proxy.webhookUrl}${endpoint.path}`)).toBe(200);
    await endpoint.expectNone(100);
    expect(proxy.applied.get('lose')).toBe(1);
  });

  it('when the receiver hangs up, then the proxy hangs up on the target too (no made-up status)', async () => {
    receiver = await startReceiver();
    proxy = await startFaultProxy({
      target: 'http://127.0.0.1:9/api',
      modifiers: [],
      webhookTarget: receiver.localUrl,
    });
    const endpoint = receiver.endpoint('hang');
    endpoint.respondWith([{ status: 200, hangUp: true }]);
    await expect(post(`${proxy.webhookUrl}${endpoint.path}`)).rejects.toThrow();
    expect(endpoint.deliveries).toHaveLength(1);
  });
});
