import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../http/HttpError.ts';
import { createMemoryStore } from './memoryStore.ts';
import { rateLimit } from './middleware.ts';

const NOW = 1_800_000_000_000;

/** A tiny app: limited list, unlimited detail, a limited route answering 400, and an error
 * handler rendering HttpError the way the service's one handler will. */
function createTestApp(trustProxy: boolean) {
  const app = express();
  if (trustProxy) app.set('trust proxy', 'loopback');
  const limited = rateLimit({ store: createMemoryStore(), now: () => NOW });
  app.get('/events', limited, (_req, res) => {
    res.json([]);
  });
  app.get('/events/:id', (req, res) => {
    res.json({ id: req.params.id });
  });
  app.get('/dictionary', limited, (_req, _res, next) => {
    next(new HttpError(400, { message: 'unknown query parameter' }));
  });
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!(err instanceof HttpError)) return next(err);
    res.status(err.status).set(err.headers).json(err.toBody());
  });
  return app;
}

async function listen(app: express.Express): Promise<{ server: Server; base: string }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => {
      resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    });
  });
}

async function get(base: string, path: string, clientIp?: string) {
  const res = await request(base + path, { headers: clientIp ? { 'x-forwarded-for': clientIp } : {} });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

async function burst(base: string, path: string, n: number, clientIp?: string) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await get(base, path, clientIp));
  return out;
}

describe('rateLimit middleware', () => {
  let proxied: { server: Server; base: string };
  let direct: { server: Server; base: string };
  beforeAll(async () => {
    proxied = await listen(createTestApp(true));
    direct = await listen(createTestApp(false));
  });
  afterAll(() => {
    for (const { server } of [proxied, direct]) {
      server.closeAllConnections();
      server.close();
    }
  });

  it('when one IP sends 42 requests at one instant, then 41 pass and the 42nd is a 429 with Retry-After and the error body [RATE-003] [RATE-004] [ERR-005]', async () => {
    const answers = await burst(proxied.base, '/events', 42, '203.0.113.10');
    expect(answers.slice(0, 41).map((a) => a.status)).toEqual(Array(41).fill(200));
    const refused = answers[41]!;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers['x-ratelimit-limit']).toBe('20');
    expect(refused.headers['x-ratelimit-policy']).toBe('20;w=1;burst=40');
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.body).toEqual({
      status: 429,
      error: 'Too Many Requests',
      message: `rate limit exceeded: 20 requests per second with a burst of 40; retry after ${refused.headers['retry-after']} s`,
    });
  });

  it('when requests pass, then every answer carries both static headers and no remaining-count header [RATE-006]', async () => {
    const [ok] = await burst(proxied.base, '/events', 1, '203.0.113.11');
    expect(ok!.status).toBe(200);
    expect(ok!.headers['x-ratelimit-limit']).toBe('20');
    expect(ok!.headers['x-ratelimit-policy']).toBe('20;w=1;burst=40');
    expect(Object.keys(ok!.headers).filter((h) => /remaining/i.test(h))).toEqual([]);
  });

  it('when a limited endpoint answers 400, then the answer still carries the rate-limit headers [RATE-006]', async () => {
    const [bad] = await burst(proxied.base, '/dictionary', 1, '203.0.113.12');
    expect(bad!.status).toBe(400);
    expect(bad!.headers['x-ratelimit-limit']).toBe('20');
    expect(bad!.headers['x-ratelimit-policy']).toBe('20;w=1;burst=40');
  });

  it('when one IP is throttled, then another IP is independent [RATE-001]', async () => {
    await burst(proxied.base, '/events', 45, '203.0.113.20');
    const other = await burst(proxied.base, '/events', 41, '203.0.113.21');
    expect(other.every((a) => a.status === 200)).toBe(true);
  });

  it('when 100 concurrent requests come from one IP, then exactly 41 pass and the rest are 429, never 503 [ERR-005]', async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, () => get(proxied.base, '/events', '203.0.113.30')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(41);
    expect(statuses.filter((s) => s === 429)).toHaveLength(59);
  });

  it('when two IPv6 addresses share a /64, then they share one bucket (DEC-RATE-004) [RATE-001]', async () => {
    await burst(proxied.base, '/events', 41, '2001:db8:7:7::1');
    const [next] = await burst(proxied.base, '/events', 1, '2001:db8:7:7::beef');
    expect(next!.status).toBe(429);
    const [elsewhere] = await burst(proxied.base, '/events', 1, '2001:db8:7:8::1');
    expect(elsewhere!.status).toBe(200);
  });

  it('when the proxy is not trusted, then X-Forwarded-For does not mint fresh buckets (DEC-RATE-004)', async () => {
    const answers = [];
    for (let i = 0; i < 42; i++) answers.push(await get(direct.base, '/events', `198.51.100.${i}`));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(41);
    expect(answers[41]!.status).toBe(429);
  });

  it('when detail reads are not mounted behind the limiter, then they neither count nor carry the headers [RATE-005]', async () => {
    const answers = await burst(proxied.base, '/events/abc', 60, '203.0.113.40');
    expect(answers.every((a) => a.status === 200 && a.headers['x-ratelimit-limit'] === undefined)).toBe(true);
    const [list] = await burst(proxied.base, '/events', 1, '203.0.113.40');
    expect(list!.status).toBe(200);
  });
});
