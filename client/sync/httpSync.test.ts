// End to end over real HTTP: syncItems → createContentClient (openapi-fetch) → createTransport (undici, retries)
// → a node:http server wrapping the scripted fake, which throttles with 429 + Retry-After.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTransport } from '../http/transport.ts';
import { createContentClient } from '../http/contentClient.ts';
import { ServiceError } from '../http/serviceError.ts';
import type { WaitEvent } from '../http/retry.ts';
import { syncItems } from './syncItems.ts';
import { createMemoryStore } from './memoryStore.ts';
import { createFakeContentService, FakeServiceError } from './testing/fakeContentService.ts';
import { COLLECTIONS, type Collection, type ListItemsQuery } from './types.ts';

const TOKEN = 'cst_test-token';
const service = createFakeContentService();
let throttleEvery = 0;
let requests = 0;
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    requests++;
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { status: 401, error: 'Unauthorized', message: 'bad token' });
    if (throttleEvery > 0 && requests % throttleEvery === 0) {
      return send(429, { status: 429, error: 'Too Many Requests', message: 'rate limit exceeded' }, { 'retry-after': '1', 'x-ratelimit-limit': '20' });
    }
    const collection = url.pathname.replace(/^\/api\//, '') as Collection;
    if (!COLLECTIONS.includes(collection)) return send(404, { status: 404, error: 'Not Found', message: url.pathname });
    const q = Object.fromEntries(url.searchParams) as Record<string, string>;
    const query: ListItemsQuery = { wfstatus: q.wfstatus!.split(',') as ListItemsQuery['wfstatus'], sortField: 'lastupdated', sortOrder: 'ASC', size: Number(q.size), ...(q.lastupdated !== undefined ? { lastupdated: q.lastupdated } : {}) };
    try {
      send(200, await service.listItems(collection, query));
    } catch (e) {
      if (e instanceof FakeServiceError) return send(e.status, { status: e.status, error: 'Bad Request', message: e.message });
      throw e;
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('syncItems over HTTP', () => {
  it('when the service throttles every 3rd request, then the waits honour Retry-After and the mirror is exact [ERR-006] [SYNC-003]', async () => {
    for (let i = 0; i < 40; i++) service.create('events', { wfstatus: i % 7 === 0 ? 'archived' : 'approved' });
    let now = Date.now();
    const waits: WaitEvent[] = [];
    const transport = createTransport({
      retry: {
        clock: () => now,
        sleep: async (ms) => void (now += ms),
        onWait: (e) => waits.push(e),
      },
    });
    const store = createMemoryStore();
    throttleEvery = 3;
    try {
      const summary = await syncItems(createContentClient({ baseUrl, token: TOKEN, transport }), 'events', store, { size: 6 });
      expect(summary.pages).toBeGreaterThan(5);
      expect(waits.length).toBeGreaterThan(2);
      for (const w of waits) {
        expect(w).toMatchObject({ status: 429, reason: 'rate-limited', retryAfterMs: 1000 });
        expect(w.delayMs).toBeGreaterThanOrEqual(1000);
      }
      const local = new Map([...store.snapshot('events')].map(([k, v]) => [k, v.lastupdated]));
      expect(local).toEqual(new Map(service.all('events').filter((i) => i.wfstatus === 'approved').map((i) => [i.trcid, i.lastupdated])));
      // Stamps like 2026-03-01T11:00:00.000123+01:00 survived the query string (the fake is strict).
      expect(service.calls.some((c) => c.query.lastupdated?.endsWith('+01:00'))).toBe(true);
    } finally {
      throttleEvery = 0;
      await transport.close();
    }
  });

  it('when the token is wrong, then a ServiceError carries the status and message, and the mark is untouched', async () => {
    const transport = createTransport({ retry: false });
    const store = createMemoryStore();
    try {
      const err = await syncItems(createContentClient({ baseUrl, token: 'wrong', transport }), 'events', store).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceError);
      expect(err).toMatchObject({ status: 401, message: expect.stringContaining('bad token') });
      expect(await store.getMark('events')).toBeUndefined();
    } finally {
      await transport.close();
    }
  });
});
