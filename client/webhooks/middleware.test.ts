import { afterEach, describe, expect, it } from 'vitest';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import {
  webhookReceiver,
  type CallbackItem,
  type DeliveryMeta,
  type ReceiverLogger,
  type WebhookReceiverOptions,
} from './middleware.ts';
import { signWebhook } from './verify.ts';

const SECRET = 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5';
const NOW_S = 1_800_000_000;

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

function memoryLogger() {
  const lines: Array<{ level: string; obj: object; msg?: string }> = [];
  const logger: ReceiverLogger = {
    error: (obj, msg) => lines.push({ level: 'error', obj, msg }),
    warn: (obj, msg) => lines.push({ level: 'warn', obj, msg }),
  };
  return { lines, logger };
}

async function start(options: Partial<WebhookReceiverOptions> & { before?: express.RequestHandler[] }) {
  const calls: Array<{ items: CallbackItem[]; meta: DeliveryMeta }> = [];
  const { lines, logger } = memoryLogger();
  const receiver = webhookReceiver({
    secret: SECRET,
    clock: () => NOW_S * 1000,
    logger,
    onItems: (items, meta) => void calls.push({ items, meta }),
    ...options,
  });
  const app = express();
  for (const mw of options.before ?? []) app.use(mw);
  app.post('/hooks', receiver);
  // Parsers for the rest of the app come after; they must not matter to the receiver.
  app.use(express.json());
  app.post('/other', (req, res) => void res.json({ echo: req.body }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  servers.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, calls, lines, receiver };
}

const sampleBody = (trcid = `trc-${randomUUID()}`) =>
  JSON.stringify({
    items: [
      {
        id: `${randomUUID()}_EventUpdated`,
        trcid,
        resourceUri: `https://cs.example/api/events/${trcid}`,
        resourceType: 'EVENT',
        actionType: 'UPDATED',
      },
    ],
  });

async function deliver(
  url: string,
  body: string | Buffer,
  opts: { ts?: number; delivery?: string; secret?: string; headers?: Record<string, string> } = {},
) {
  const ts = opts.ts ?? NOW_S;
  const res = await request(`${url}/hooks`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-service-timestamp': String(ts),
      'x-service-signature': signWebhook(opts.secret ?? SECRET, ts, body),
      'x-service-delivery': opts.delivery ?? randomUUID(),
      ...opts.headers,
    },
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

describe('webhookReceiver', () => {
  it('when a signed delivery arrives, then it answers 200 and hands the items over in the background [HOOK-015]', async () => {
    const { url, calls, receiver } = await start({});
    const body = sampleBody('trc-1');
    const delivery = randomUUID();
    const res = await deliver(url, body, { delivery });
    expect(res).toEqual({ status: 200, body: { status: 'accepted', deliveryId: delivery, items: 1 } });
    await receiver.drain();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.items[0]).toMatchObject({ trcid: 'trc-1', actionType: 'UPDATED' });
    expect(calls[0]!.meta).toEqual({ deliveryId: delivery, timestamp: NOW_S, receivedAt: NOW_S * 1000 });
  });

  it('when the same delivery id comes again, then it answers 200 duplicate and does not call onItems twice [HOOK-021]', async () => {
    const { url, calls, receiver } = await start({});
    const body = sampleBody();
    const delivery = randomUUID();
    expect((await deliver(url, body, { delivery })).body.status).toBe('accepted');
    // A retry is re-signed with a fresh timestamp but keeps the delivery id.
    expect(await deliver(url, body, { delivery, ts: NOW_S - 10 })).toMatchObject({
      status: 200,
      body: { status: 'duplicate' },
    });
    await receiver.drain();
    expect(calls).toHaveLength(1);
  });

  it.each([
    ['a wrong secret', { secret: 'not-the-secret' }, 'signature_mismatch'],
    ['a stale timestamp', { ts: NOW_S - 301 }, 'timestamp_too_old'],
    ['a future timestamp', { ts: NOW_S + 301 }, 'timestamp_too_new'],
    ['no delivery id', { headers: { 'x-service-delivery': '' } }, 'missing_header'],
    ['a malformed signature', { headers: { 'x-service-signature': 'sha256=abc' } }, 'malformed_signature'],
  ] as const)(
    'when the delivery has %s, then it answers 401 with the reason and never calls onItems [HOOK-014] [HOOK-023]',
    async (_name, opts, reason) => {
      const { url, calls, receiver, lines } = await start({});
      const res = await deliver(url, sampleBody(), opts);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: 'Unauthorized', reason });
      await receiver.drain();
      expect(calls).toHaveLength(0);
      expect(lines.some((l) => l.level === 'warn')).toBe(true);
    },
  );

  it('when the body bytes differ from the signed ones (re-serialised JSON), then it is rejected', async () => {
    const { url } = await start({});
    const body = sampleBody();
    const ts = NOW_S;
    const res = await request(`${url}/hooks`, {
      method: 'POST',
      body: JSON.stringify(JSON.parse(body), null, 2),
      headers: {
        'x-service-timestamp': String(ts),
        'x-service-signature': signWebhook(SECRET, ts, body),
        'x-service-delivery': randomUUID(),
      },
    });
    expect(res.statusCode).toBe(401);
    await res.body.dump();
  });

  it('when a rejected delivery is forged with a seen-later id, then the real delivery is still processed', async () => {
    const { url, calls, receiver } = await start({});
    const delivery = randomUUID();
    expect((await deliver(url, sampleBody(), { delivery, secret: 'forger' })).status).toBe(401);
    expect((await deliver(url, sampleBody(), { delivery })).body.status).toBe('accepted');
    await receiver.drain();
    expect(calls).toHaveLength(1);
  });

  it('when onItems is slow, then the answer still comes at once [HOOK-017]', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { url, receiver } = await start({ onItems: () => gate });
    const t0 = performance.now();
    const res = await deliver(url, sampleBody());
    const elapsed = performance.now() - t0;
    expect(res.status).toBe(200);
    expect(elapsed).toBeLessThan(1000);
    release();
    await receiver.drain();
  });

  it('when onItems throws, then the error is logged and the answer is still 200', async () => {
    const { url, receiver, lines } = await start({
      onItems: async () => {
        throw new Error('boom');
      },
    });
    expect((await deliver(url, sampleBody())).status).toBe(200);
    await receiver.drain();
    expect(lines.find((l) => l.level === 'error')?.msg).toMatch(/onItems/);
  });

  it('when secrets rotate, then both secrets of the window verify', async () => {
    const { url } = await start({ secret: undefined, secrets: ['new-secret-value', SECRET] });
    expect((await deliver(url, sampleBody())).status).toBe(200);
    expect((await deliver(url, sampleBody(), { secret: 'new-secret-value' })).status).toBe(200);
    expect((await deliver(url, sampleBody(), { secret: 'retired' })).status).toBe(401);
  });

  it('when express.raw() ran before it, then the buffered raw body is used', async () => {
    const { url, calls, receiver } = await start({ before: [express.raw({ type: '*/*' })] });
    expect((await deliver(url, sampleBody('trc-raw'))).status).toBe(200);
    await receiver.drain();
    expect(calls[0]!.items[0]!.trcid).toBe('trc-raw');
  });

  it('when express.json() consumed the body first, then it answers 500 naming the mounting problem (so the service retries)', async () => {
    const { url, calls, lines } = await start({ before: [express.json()] });
    const res = await deliver(url, sampleBody());
    expect(res.status).toBe(500);
    expect(String(res.body.message)).toMatch(/before any JSON body parser/);
    expect(calls).toHaveLength(0);
    expect(lines.some((l) => l.level === 'error')).toBe(true);
  });

  it('when the signed body is not a CallbackBody, then it answers 400 and a fixed redelivery is processed', async () => {
    const { url, calls, receiver } = await start({});
    const delivery = randomUUID();
    expect((await deliver(url, '{"items":[{"trcid":1}]}', { delivery })).status).toBe(400);
    expect((await deliver(url, 'not json', { delivery })).status).toBe(400);
    expect((await deliver(url, sampleBody(), { delivery })).status).toBe(200);
    await receiver.drain();
    expect(calls).toHaveLength(1);
  });

  it('when the body is larger than the limit, then it answers 413', async () => {
    const { url } = await start({ maxBodyBytes: 100 });
    const res = await deliver(url, JSON.stringify({ items: [], pad: 'x'.repeat(500) }));
    expect(res.status).toBe(413);
  });

  it('when the method is not POST, then it answers 405', async () => {
    const app = express();
    app.all('/hooks', webhookReceiver({ secret: SECRET, onItems: () => {} }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    servers.push(server);
    const res = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    await res.body.dump();
  });

  it('when the rest of the app uses express.json(), then it keeps working', async () => {
    const { url } = await start({});
    const res = await request(`${url}/other`, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(await res.body.json()).toEqual({ echo: { a: 1 } });
  });

  it('when no secret is configured, then creating the receiver throws', () => {
    expect(() => webhookReceiver({ onItems: () => {} })).toThrow(TypeError);
    expect(() => webhookReceiver({ secrets: [''], onItems: () => {} })).toThrow(TypeError);
  });
});
