import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { signWebhook } from '../../client/webhooks/verify.ts';
import { isCheckFailure } from '../model/failure.ts';
import { startReceiver } from './receiver.ts';
import type { Receiver } from './receiver.ts';

let receiver: Receiver | undefined;
afterEach(async () => receiver?.close());

const SECRET = 'test-signing-secret-0123456789abcdefghijklmno';

async function deliver(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  await res.body.dump();
  return res.statusCode;
}

function signed(body: string, ts = Math.floor(Date.now() / 1000)) {
  return {
    'x-service-timestamp': String(ts),
    'x-service-signature': signWebhook(SECRET, ts, body),
    'x-service-delivery': '6f1c2a4e-0d3b-4b8e-9a51-2f7c8d9e0a1b',
  };
}

describe('startReceiver', () => {
  it('when a delivery arrives, then the raw bytes, headers and time are recorded', async () => {
    receiver = await startReceiver();
    const ep = receiver.endpoint('basic');
    expect(ep.url).toBe(`${receiver.localUrl}/hooks/basic`);
    const body = '{"items":[{"id":"x_EventUpdated"}],  "spacing":"kept"}';
    const before = Date.now();
    expect(await deliver(ep.url, body, { 'X-Custom': 'v' })).toBe(200);
    expect(ep.deliveries).toHaveLength(1);
    const d = ep.deliveries[0]!;
    expect(d.rawBody.toString()).toBe(body);
    expect(d.headers['x-custom']).toBe('v');
    expect(d.receivedAt).toBeGreaterThanOrEqual(before);
    expect(d.json()).toEqual({ items: [{ id: 'x_EventUpdated' }], spacing: 'kept' });
  });

  it('when a delivery has members with escaped names, then json() keeps each name as sent (nodejs/node#63785)', async () => {
    // A name new to the process leads the member objects, so that JSON.parse would misread "\"" here.
    const lead = `lead_${randomUUID().slice(0, 8)}`;
    receiver = await startReceiver();
    const ep = receiver.endpoint('names');
    const body = JSON.stringify({ items: [{ extra: { [lead]: [], '\\': 1 } }, { extra: { [lead]: 2, '"': 2 } }] });
    expect(await deliver(ep.url, body)).toBe(200);
    const { items } = ep.deliveries[0]!.json() as { items: Array<{ extra: object }> };
    expect(items.map((item) => Object.keys(item.extra).slice(1))).toEqual([['\\'], ['"']]);
  });

  it('when a script is set, then deliveries are answered in order and then with the default', async () => {
    receiver = await startReceiver();
    const ep = receiver.endpoint('scripted');
    ep.respondWith([500, { status: 410 }, 200]);
    ep.setDefault(204);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await deliver(ep.url, '{}'));
    expect(statuses).toEqual([500, 410, 200, 204]);
    expect(ep.deliveries.map((d) => d.response.status)).toEqual([500, 410, 200, 204]);
  });

  it('when a delay is scripted, then the answer comes after it', async () => {
    receiver = await startReceiver();
    const ep = receiver.endpoint('slow');
    ep.respondWith([{ status: 200, delayMs: 300 }]);
    const started = Date.now();
    await deliver(ep.url, '{}');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('when a hang-up is scripted, then the sender sees a connection error', async () => {
    receiver = await startReceiver();
    const ep = receiver.endpoint('hangup');
    ep.respondWith([{ status: 200, hangUp: true }]);
    await expect(deliver(ep.url, '{}')).rejects.toThrow();
    expect(ep.deliveries).toHaveLength(1);
  });

  it('when the secret is known, then signatures are verified with the client verifier', async () => {
    receiver = await startReceiver();
    const ep = receiver.endpoint('signed');
    ep.setSecret(SECRET);
    const body = '{"items":[]}';
    await deliver(ep.url, body, signed(body));
    await deliver(ep.url, body, signed(`${body} `));
    await deliver(ep.url, body, signed(body, Math.floor(Date.now() / 1000) - 301));
    expect(ep.deliveries.map((d) => d.verification?.ok)).toEqual([true, false, false]);
    expect(ep.deliveries.map((d) => d.verification?.reason)).toEqual([
      undefined,
      'signature_mismatch',
      'timestamp_too_old',
    ]);
  });

  it('when waiting for a delivery, then it resolves on arrival or fails with a summary', async () => {
    receiver = await startReceiver();
    const ep = receiver.endpoint('wait');
    const waiting = ep.waitFor((d) => (d.json() as { n: number }).n === 2, 2000, 'delivery n=2');
    await deliver(ep.url, '{"n":1}');
    await deliver(ep.url, '{"n":2}');
    expect((await waiting).seq).toBe(2);
    const failure = await ep
      .waitFor((d) => (d.json() as { n: number }).n === 3, 100, 'delivery n=3')
      .catch((e: unknown) => e);
    expect(isCheckFailure(failure)).toBe(true);
    expect((failure as Error).message).toMatch(
      /^no delivery n=3 arrived at .* within 100 ms \(deliveries: #1 POST \/hooks\/wait/,
    );
  });

  it('when a delivery arrives during expectNone, then it fails', async () => {
    receiver = await startReceiver();
    const ep = receiver.endpoint('none');
    const quiet = ep.expectNone(200);
    await deliver(ep.url, '{"late":true}');
    await expect(quiet).rejects.toThrow(/unexpected delivery/);
    await expect(ep.expectNone(50)).resolves.toBeUndefined();
  });

  it('when a path belongs to no endpoint, then it is recorded and answered 404', async () => {
    receiver = await startReceiver();
    expect(await deliver(`${receiver.localUrl}/elsewhere`, '{}')).toBe(404);
    expect(receiver.deliveries[0]).toMatchObject({ endpoint: undefined, path: '/elsewhere' });
  });

  it('when a public URL is given, then endpoint URLs use it', async () => {
    receiver = await startReceiver({ publicUrl: 'https://hooks.example.com/suite/' });
    expect(receiver.endpoint('x').url).toBe('https://hooks.example.com/suite/hooks/x');
    expect(receiver.endpoint('x').path).toBe('/suite/hooks/x');
  });
});
