import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { generate } from 'selfsigned';
import type { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HEADERS_TIMEOUT_MS, sendAttempt, WEBHOOK_USER_AGENT, type SendAttemptInput } from './sendAttempt.ts';
import { verifySignature } from '../../test/support/webhooks/verifySignature.ts';
import { createGuardedAgent } from './ssrfGuard.ts';
import { answer, startReceiver, type Receiver } from '../../test/support/webhooks/receiver.ts';

const SECRET = 'kq1E1o0bRrRkWm3Ztz3b3ZmUu8b1mB0pWkq7eFQKc2A';
const NOW = Date.UTC(2026, 6, 1, 10, 0, 0);
const BODY = Buffer.from(
  JSON.stringify({
    items: [
      {
        id: '6c1f0f3e-7c1a-4a43-9d53-1b2f3e4d5c6b_EventUpdated',
        trcid: 'trc-1',
        resourceUri: 'https://svc.example/api/events/6c1f',
        resourceType: 'EVENT',
        actionType: 'UPDATED',
        title: 'Grüße 🌍',
      },
    ],
  }),
  'utf8',
);

describe('sendAttempt (DEC-HOOK-006, DEC-HOOK-008)', () => {
  let receiver: Receiver;
  let agent: Agent;
  beforeAll(async () => {
    receiver = await startReceiver();
    agent = createGuardedAgent({ allowInsecure: true });
  });
  afterEach(() => {
    receiver.requests.length = 0;
    receiver.handle(answer(204));
  });
  afterAll(async () => {
    await agent.close();
    await receiver.close();
  });

  const send = (overrides: Partial<SendAttemptInput> = {}) =>
    sendAttempt({
      url: `${receiver.url}/hooks/content?src=test`,
      body: BODY,
      secret: SECRET,
      deliveryId: randomUUID(),
      dispatcher: agent,
      now: () => NOW,
      headersTimeoutMs: 200,
      ...overrides,
    });

  it('when the receiver answers 200, then it is delivered and the bytes, headers and signature are exactly as specified [HOOK-010] [HOOK-011] [HOOK-012] [HOOK-013]', async () => {
    receiver.handle(answer(200, { 'content-type': 'text/plain' }, 'thanks'));
    const deliveryId = randomUUID();
    const outcome = await send({ deliveryId });
    expect(outcome).toMatchObject({ outcome: 'delivered', status: 200, error: null, timestamp: NOW / 1000 });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);

    const [got] = receiver.requests;
    expect(got!.method).toBe('POST');
    expect(got!.path).toBe('/hooks/content?src=test');
    expect(got!.body.equals(BODY)).toBe(true);
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
    expect(got!.headers['content-encoding']).toBeUndefined();
    expect(got!.headers['x-service-delivery']).toBe(deliveryId);
    expect(got!.headers['x-service-timestamp']).toBe(String(NOW / 1000));
    expect(got!.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    const verdict = verifySignature({
      secret: SECRET,
      timestamp: got!.headers['x-service-timestamp'] as string,
      signature: got!.headers['x-service-signature'] as string,
      body: got!.body,
      nowSeconds: NOW / 1000 + 10,
    });
    expect(verdict).toEqual({ ok: true });
  });

  it('when one delivery is attempted twice, then the delivery id and bytes stay and the timestamp and signature are fresh [HOOK-012] [HOOK-018]', async () => {
    receiver.handle(answer(503));
    const deliveryId = randomUUID();
    const first = await send({ deliveryId, now: () => NOW });
    const second = await send({ deliveryId, now: () => NOW + 5 * 60_000 });
    expect([first.outcome, second.outcome]).toEqual(['transient', 'transient']);
    const [a, b] = receiver.requests;
    expect(a!.headers['x-service-delivery']).toBe(deliveryId);
    expect(b!.headers['x-service-delivery']).toBe(deliveryId);
    expect(a!.body.equals(b!.body)).toBe(true);
    expect(Number(b!.headers['x-service-timestamp']) - Number(a!.headers['x-service-timestamp'])).toBe(300);
    expect(a!.headers['x-service-signature']).not.toBe(b!.headers['x-service-signature']);
    for (const r of [a!, b!]) {
      const ts = r.headers['x-service-timestamp'] as string;
      expect(
        verifySignature({
          secret: SECRET,
          timestamp: ts,
          signature: r.headers['x-service-signature'] as string,
          body: r.body,
          nowSeconds: Number(ts),
        }).ok,
      ).toBe(true);
    }
  });

  it.each([
    [200, 'delivered'],
    [204, 'delivered'],
    [299, 'delivered'],
    [400, 'permanent'],
    [408, 'permanent'],
    [410, 'permanent'],
    [429, 'permanent'],
    [500, 'transient'],
    [503, 'transient'],
  ] as const)('when the receiver answers %i, then the attempt is %s [HOOK-018] [HOOK-020]', async (status, outcome) => {
    receiver.handle(answer(status));
    const result = await send();
    expect(result).toMatchObject({ outcome, status });
    expect(result.error).toBe(outcome === 'delivered' ? null : `HTTP ${status}`);
  });

  it('when the receiver redirects, then the redirect is not followed and the attempt is permanent (DEC-HOOK-006)', async () => {
    const target = await startReceiver();
    try {
      receiver.handle(answer(301, { location: `${target.url}/elsewhere` }));
      const result = await send();
      expect(result).toMatchObject({
        outcome: 'permanent',
        status: 301,
        error: 'HTTP 301: redirects are not followed',
      });
      expect(target.requests).toHaveLength(0);
    } finally {
      await target.close();
    }
  });

  it('when the response headers do not arrive within the budget, then the attempt is transient [HOOK-018]', async () => {
    const pending: NodeJS.Timeout[] = [];
    receiver.handle((_req, res) => pending.push(setTimeout(() => res.writeHead(200).end(), 1500)));
    const started = Date.now();
    const result = await send({ headersTimeoutMs: 200 });
    expect(result).toMatchObject({ outcome: 'transient', status: null, error: 'no response headers within 200 ms' });
    expect(Date.now() - started).toBeLessThan(1000);
    pending.forEach(clearTimeout);
  });

  it('when the budget is not given, then it is 5 s', () => {
    expect(DEFAULT_HEADERS_TIMEOUT_MS).toBe(5000);
  });

  it('when the connection is refused, then the attempt is transient [HOOK-018]', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const result = await send({ url: `http://127.0.0.1:${closed}/hook` });
    expect(result).toMatchObject({ outcome: 'transient', status: null });
    expect(result.error).toContain('ECONNREFUSED');
  });

  it('when the receiver resets the connection before answering, then the attempt is transient [HOOK-018]', async () => {
    receiver.handle((req) => req.socket.destroy());
    const result = await send();
    expect(result).toMatchObject({ outcome: 'transient', status: null });
    expect(result.error).not.toBeNull();
  });

  it('when the receiver sends half a status line and hangs up, then the attempt is transient', async () => {
    receiver.handle((req) => {
      req.socket.write('HTTP/1.1 2');
      req.socket.destroy();
    });
    expect(await send()).toMatchObject({ outcome: 'transient', status: null });
  });

  it('when the receiver resets mid-body after a 200 status, then the status line counts: delivered', async () => {
    receiver.handle((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('partial');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    expect(await send()).toMatchObject({ outcome: 'delivered', status: 200, error: null });
  });

  it('when the receiver answers with a huge body, then it is discarded after the cap and the attempt returns promptly', async () => {
    receiver.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      let sent = 0;
      const pump = () => {
        while (sent < 64 && res.write(chunk)) sent++;
        if (sent < 64) res.once('drain', pump);
        else res.end();
      };
      pump();
    });
    const started = Date.now();
    expect(await send({ maxResponseBytes: 1024 })).toMatchObject({ outcome: 'delivered', status: 200 });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('when the target address is blocked by the policy, then the attempt is permanent and nothing is sent (DEC-HOOK-006)', async () => {
    const secure = createGuardedAgent();
    try {
      const result = await send({ url: `https://127.0.0.1:${receiver.port}/hook`, dispatcher: secure });
      expect(result).toMatchObject({ outcome: 'permanent', status: null });
      expect(result.error).toMatch(/^blocked address: 127\.0\.0\.1: /);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await secure.close();
    }
  });

  it('when the name does not resolve, then the attempt is transient (a DNS error)', async () => {
    const noDns = createGuardedAgent({
      resolve: async (host) => {
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      },
    });
    try {
      const result = await send({ url: 'https://hooks.invalid/hook', dispatcher: noDns });
      expect(result).toMatchObject({ outcome: 'transient', status: null });
      expect(result.error).toContain('ENOTFOUND');
    } finally {
      await noDns.close();
    }
  });
});

describe('sendAttempt over HTTPS', () => {
  let receiver: Receiver;
  let cert: string;
  beforeAll(async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      notAfterDate: new Date(Date.now() + 24 * 3600_000),
      extensions: [
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ],
    });
    cert = pems.cert;
    receiver = await startReceiver(answer(200), { key: pems.private, cert: pems.cert });
  });
  afterAll(() => receiver.close());

  it('when the receiver certificate is trusted through the Agent CA option, then the delivery succeeds over TLS', async () => {
    const agent = createGuardedAgent({ allowInsecure: true, ca: cert });
    try {
      const result = await sendAttempt({
        url: `${receiver.url}/hook`,
        body: BODY,
        secret: SECRET,
        deliveryId: randomUUID(),
        dispatcher: agent,
        headersTimeoutMs: 2000,
      });
      expect(result).toMatchObject({ outcome: 'delivered', status: 200 });
      expect(receiver.requests.at(-1)!.body.equals(BODY)).toBe(true);
    } finally {
      await agent.close();
    }
  });

  it('when the receiver certificate is not trusted, then the TLS error is transient', async () => {
    const agent = createGuardedAgent({ allowInsecure: true });
    try {
      const result = await sendAttempt({
        url: `${receiver.url}/hook`,
        body: BODY,
        secret: SECRET,
        deliveryId: randomUUID(),
        dispatcher: agent,
        headersTimeoutMs: 2000,
      });
      expect(result).toMatchObject({ outcome: 'transient', status: null });
      expect(result.error).toMatch(/self[- ]signed|certificate/i);
    } finally {
      await agent.close();
    }
  });
});
