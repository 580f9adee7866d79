import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createRedisClient, createRedisStore, type Logger } from './redisStore.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(500, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

// Redis is part of the dev setup; in CI a missing Redis is a failure, not a skip.
const redisUp = (await reachable(REDIS_URL)) || process.env.CI === 'true';

function recordingLog() {
  const warnings: string[] = [];
  const infos: string[] = [];
  const log: Logger = { warn: (m) => warnings.push(m), info: (m) => infos.push(m) };
  return { log, warnings, infos };
}

describe.skipIf(!redisUp)('createRedisStore (Redis at REDIS_URL)', () => {
  let client: Redis;
  const prefix = `test:ratelimit:${randomUUID()}:`;

  beforeAll(async () => {
    client = createRedisClient(REDIS_URL);
    await new Promise<void>((resolve) => client.once('ready', () => resolve()));
  });
  afterAll(async () => {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
    client.disconnect();
  });

  const store = () => createRedisStore({ redis: client, keyPrefix: prefix });

  it('when one key takes 100 at one injected instant, then 41 pass and the refusal carries Retry-After 1 [RATE-003] [RATE-004]', async () => {
    const s = store();
    const key = randomUUID();
    const ds = [];
    for (let i = 0; i < 100; i++) ds.push(await s.take(key, 1_000_000));
    expect(ds.filter((d) => d.allowed)).toHaveLength(41);
    expect(ds[41]).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect((await s.take(key, 1_000_049)).allowed).toBe(false);
    expect((await s.take(key, 1_000_050)).allowed).toBe(true);
  });

  it('when a flood of one request per ms starts from rest, then 60 pass in the first second [RATE-002]', async () => {
    const s = store();
    const key = randomUUID();
    let allowed = 0;
    for (let t = 0; t < 1000; t++) if ((await s.take(key, 5_000_000 + t)).allowed) allowed++;
    expect(allowed).toBe(60);
  });

  it('when a request is refused, then the stored TAT and its expiry are untouched', async () => {
    const s = store();
    const key = randomUUID();
    for (let i = 0; i < 41; i++) await s.take(key, 2_000_000);
    const before = await client.get(prefix + key);
    expect(before).toBe(String(2_000_000 + 41 * 50));
    expect((await s.take(key, 2_000_010)).allowed).toBe(false);
    expect(await client.get(prefix + key)).toBe(before);
  });

  it('when a key is written, then it expires when its TAT passes (memory stays bounded)', async () => {
    const s = store();
    const key = randomUUID();
    await s.take(key, 3_000_000);
    const pttl = await client.pttl(prefix + key);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(50);
  });

  it('when a full key gets a slot back, then exactly one more request passes, and a key given back to rest is deleted (DEC-AUTH-016)', async () => {
    const s = store();
    const key = randomUUID();
    for (let i = 0; i < 41; i++) await s.take(key, 4_000_000);
    expect((await s.take(key, 4_000_000)).allowed).toBe(false);
    await s.refund(key, 4_000_000);
    expect(await client.get(prefix + key)).toBe(String(4_000_000 + 40 * 50));
    expect((await s.take(key, 4_000_000)).allowed).toBe(true);
    expect((await s.take(key, 4_000_000)).allowed).toBe(false);
    const once = randomUUID();
    await s.take(once, 4_000_000);
    await s.refund(once, 4_000_000);
    expect(await client.exists(prefix + once)).toBe(0);
  });

  it('when two instances share Redis and use its TIME, then together they get one burst of about 41 [RATE-001]', async () => {
    const a = store();
    const b = store();
    const key = randomUUID();
    const started = performance.now();
    const ds = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).take(key)));
    const elapsed = performance.now() - started;
    const allowed = ds.filter((d) => d.allowed).length;
    // Real time passes while the 60 commands run: one more slot opens per 50 ms.
    expect(allowed).toBeGreaterThanOrEqual(41);
    expect(allowed).toBeLessThanOrEqual(41 + Math.ceil(elapsed / 50));
  });

  it('when the shared client disconnects, then the store falls back to memory and warns once', async () => {
    const own = createRedisClient(REDIS_URL);
    await new Promise<void>((resolve) => own.once('ready', () => resolve()));
    const { log, warnings } = recordingLog();
    const s = createRedisStore({ redis: own, keyPrefix: prefix, log });
    const key = randomUUID();
    expect((await s.take(key, 7_000_000)).allowed).toBe(true);
    own.disconnect();
    let allowed = 0;
    for (let i = 0; i < 60; i++) if ((await s.take(key, 7_000_000)).allowed) allowed++;
    expect(allowed).toBe(41); // the fallback starts its own bucket for this key
    expect(warnings).toHaveLength(1);
  });
});

describe('createRedisStore when Redis is down', () => {
  it('when the URL points at a closed port, then limits still apply per instance and one warning is logged [ERR-005]', async () => {
    const { log, warnings } = recordingLog();
    const s = createRedisStore({ redis: 'redis://127.0.0.1:1', log });
    try {
      const ds = [];
      for (let i = 0; i < 50; i++) ds.push(await s.take('198.51.100.7', 9_000_000));
      expect(ds.filter((d) => d.allowed)).toHaveLength(41);
      expect(ds[41]).toEqual({ allowed: false, retryAfterSeconds: 1 });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/Redis unavailable/);
      expect(await s.ready(50)).toBe(false);
    } finally {
      await s.close?.();
    }
  });

  it('when a slot is given back while Redis is down, then the fallback gets it, and the warning names the limit', async () => {
    const { log, warnings } = recordingLog();
    const s = createRedisStore({ redis: 'redis://127.0.0.1:1', log, label: 'sign-in' });
    try {
      for (let i = 0; i < 41; i++) await s.take('203.0.113.9', 9_000_000);
      expect((await s.take('203.0.113.9', 9_000_000)).allowed).toBe(false);
      await s.refund('203.0.113.9', 9_000_000);
      expect((await s.take('203.0.113.9', 9_000_000)).allowed).toBe(true);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^rate limit \(sign-in\): Redis unavailable/);
    } finally {
      await s.close?.();
    }
  });

  it.skipIf(!redisUp)('when Redis becomes reachable, then the store uses it again and says so', async () => {
    const { log, warnings, infos } = recordingLog();
    const s = createRedisStore({ redis: REDIS_URL, keyPrefix: `test:ratelimit:${randomUUID()}:`, log });
    try {
      await s.take('k', 1); // still connecting: fallback, one warning
      expect(await s.ready(2000)).toBe(true);
      expect((await s.take('k', 1)).allowed).toBe(true);
      expect(warnings).toHaveLength(1);
      expect(infos).toHaveLength(1);
    } finally {
      await s.close?.();
    }
  });
});
