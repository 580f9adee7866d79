import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pkg from '../../package.json' with { type: 'json' };
import createClient from 'openapi-fetch';
import { createTransport, USER_AGENT } from './transport.ts';
import type { WaitEvent } from './retry.ts';

interface Seen {
  method: string;
  url: string;
  body: string;
  userAgent: string | undefined;
  authorization: string | undefined;
}

// A scripted server: each path answers from its own queue of statuses, then 200.
let server: http.Server;
let base: string;
const seen: Seen[] = [];
const scripts = new Map<string, Array<{ status: number; headers?: Record<string, string> }>>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      seen.push({
        method: req.method ?? '',
        url,
        body: Buffer.concat(chunks).toString('utf8'),
        userAgent: req.headers['user-agent'],
        authorization: req.headers.authorization,
      });
      if (url.startsWith('/hang')) return; // never answers
      const next = scripts.get(url)?.shift() ?? { status: 200 };
      res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
      res.end(JSON.stringify({ status: next.status, n: seen.length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function fakeTimers() {
  let now = Date.now();
  const slept: number[] = [];
  const waits: WaitEvent[] = [];
  return {
    slept,
    waits,
    retry: {
      clock: () => now,
      sleep: async (ms: number) => {
        slept.push(ms);
        now += ms;
      },
      onWait: (e: WaitEvent) => waits.push(e),
    },
  };
}

describe('createTransport', () => {
  it('when the server answers 429 with Retry-After three times, then the waits honour it and the 4th answer is returned [ERR-006]', async () => {
    const path = `/events?case=429-${Math.random()}`;
    scripts.set(path, [
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 429, headers: { 'retry-after': '2' } },
      { status: 429, headers: { 'retry-after': '1' } },
    ]);
    const t = fakeTimers();
    const transport = createTransport({ retry: t.retry });
    try {
      const before = seen.length;
      const res = await transport.fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 200 });
      expect(seen.length - before).toBe(4);
      expect(t.waits.map((w) => [w.attempt, w.status, w.reason])).toEqual([
        [1, 429, 'rate-limited'],
        [2, 429, 'rate-limited'],
        [3, 429, 'rate-limited'],
      ]);
      expect(t.slept[0]).toBe(1000);
      expect(t.slept[1]).toBeGreaterThanOrEqual(2000);
      expect(t.slept[2]).toBeGreaterThanOrEqual(1000);
    } finally {
      await transport.close();
    }
  });

  it('when a POST is throttled, then the same body is sent again', async () => {
    const path = `/events?case=post-${Math.random()}`;
    scripts.set(path, [{ status: 429, headers: { 'retry-after': '1' } }]);
    const t = fakeTimers();
    const transport = createTransport({ retry: t.retry });
    try {
      const before = seen.length;
      const res = await transport.fetch(
        new Request(`${base}${path}`, {
          method: 'POST',
          body: '{"title":"Grüße"}',
          headers: { 'content-type': 'application/json' },
        }),
      );
      expect(res.status).toBe(200);
      const attempts = seen.slice(before);
      expect(attempts.map((a) => [a.method, a.body])).toEqual([
        ['POST', '{"title":"Grüße"}'],
        ['POST', '{"title":"Grüße"}'],
      ]);
    } finally {
      await transport.close();
    }
  });

  it('when a POST gets 503, then it is not repeated; a GET is', async () => {
    const postPath = `/events?case=post503-${Math.random()}`;
    const getPath = `/events?case=get503-${Math.random()}`;
    scripts.set(postPath, [{ status: 503 }]);
    scripts.set(getPath, [{ status: 503 }]);
    const t = fakeTimers();
    const transport = createTransport({ retry: t.retry });
    try {
      expect((await transport.fetch(`${base}${postPath}`, { method: 'POST', body: '{}' })).status).toBe(503);
      expect((await transport.fetch(`${base}${getPath}`)).status).toBe(200);
      expect(t.waits.map((w) => [w.method, w.status])).toEqual([['GET', 503]]);
    } finally {
      await transport.close();
    }
  });

  it('when no header is given, then the User-Agent names the library and its version, and default headers are sent', async () => {
    const transport = createTransport({ headers: { authorization: 'Bearer t0k' } });
    try {
      const before = seen.length;
      await (await transport.fetch(`${base}/ua`)).arrayBuffer();
      expect(USER_AGENT).toBe(`content-service-client/${pkg.version}`);
      expect(seen[before]).toMatchObject({ userAgent: USER_AGENT, authorization: 'Bearer t0k' });
      await (
        await transport.fetch(`${base}/ua`, { headers: { 'user-agent': 'mine/1', authorization: 'Bearer other' } })
      ).arrayBuffer();
      expect(seen[before + 1]).toMatchObject({ userAgent: 'mine/1', authorization: 'Bearer other' });
    } finally {
      await transport.close();
    }
  });

  it('when the connection is refused, then a GET is retried and the network error surfaces after the attempts', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const t = fakeTimers();
    const transport = createTransport({ retry: { ...t.retry, maxAttempts: 3 } });
    try {
      await expect(transport.fetch(`http://127.0.0.1:${port}/events`)).rejects.toThrow(/fetch failed/);
      expect(t.waits.map((w) => w.reason)).toEqual(['network-error', 'network-error']);
    } finally {
      await transport.close();
    }
  });

  it('when the response headers do not come in time, then the request fails with a timeout', async () => {
    const transport = createTransport({ headersTimeoutMs: 200, retry: false });
    try {
      const err = await transport.fetch(`${base}/hang`).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TypeError);
      expect(String((err as { cause?: { code?: string } }).cause?.code)).toBe('UND_ERR_HEADERS_TIMEOUT');
    } finally {
      await transport.close();
    }
  });

  it('when requests follow each other, then the keep-alive socket is reused', async () => {
    const transport = createTransport();
    const sockets = new Set<unknown>();
    const onConn = (s: unknown) => sockets.add(s);
    server.on('connection', onConn);
    try {
      // undici frees a socket just after the body ends, so the second request may still open
      // a new one; after that the pool reuses them.
      for (let i = 0; i < 20; i++) await (await transport.fetch(`${base}/ka`)).arrayBuffer();
      expect(sockets.size).toBeLessThanOrEqual(2);
    } finally {
      server.off('connection', onConn);
      await transport.close();
    }
  });

  it('when openapi-fetch is given the transport as its fetch, then typed calls go through it with retries', async () => {
    // A hand-written paths type until generated/types.ts exists.
    interface Paths {
      '/events': {
        get: {
          parameters: { query?: { size?: number; lastupdated?: string } };
          responses: { 200: { content: { 'application/json': { status: number; n: number } } } };
        };
      };
    }
    const t = fakeTimers();
    const transport = createTransport({ retry: t.retry });
    const path = `/events?size=2&lastupdated=2026-03-01T11%3A00%3A00.000123%2B01%3A00`;
    scripts.set(path, [{ status: 429, headers: { 'retry-after': '1' } }]);
    try {
      const client = createClient<Paths>({ baseUrl: base, fetch: transport.fetch });
      const before = seen.length;
      const { data, response } = await client.GET('/events', {
        params: { query: { size: 2, lastupdated: '2026-03-01T11:00:00.000123+01:00' } },
      });
      expect(response.status).toBe(200);
      expect(data).toMatchObject({ status: 200 });
      expect(response).toBeInstanceOf(Response);
      expect(seen.slice(before).map((s) => s.url)).toEqual([path, path]);
      expect(t.waits).toHaveLength(1);
    } finally {
      await transport.close();
    }
  });
});
