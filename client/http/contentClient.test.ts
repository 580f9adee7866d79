import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createContentClient } from './contentClient.ts';
import { ServiceError } from './serviceError.ts';
import { createTransport, USER_AGENT } from './transport.ts';
import type { WaitEvent } from './retry.ts';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  userAgent: string | undefined;
}

// Answers by path; records every request line and the headers that matter.
const seen: Seen[] = [];
const routes = new Map<string, () => { status: number; body?: unknown; headers?: Record<string, string> }>();
let server: http.Server;
let origin: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
      userAgent: req.headers['user-agent'],
    });
    const route = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    const answer = route?.() ?? { status: 404, body: { status: 404, error: 'Not Found', message: 'no such item' } };
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const event = (trcid: string) => ({
  trcid,
  entitytype: 'EVENEMENT',
  creationdate: '2026-01-01T00:00:00.000Z',
  wfstatus: 'approved',
  lastupdated: '2026-03-01T10:00:00.001Z',
  somethingNew: { kept: true },
});

describe('createContentClient', () => {
  it('when listing a collection, then the query goes out as the spec serialises it, with bearer and User-Agent, and unknown fields are kept [SYNC-002] [ITEM-022]', async () => {
    routes.set('/api/events', () => ({ status: 200, body: [event('trc-1')] }));
    const client = createContentClient({ baseUrl: `${origin}/api/`, token: 'cst_abc' });
    try {
      const before = seen.length;
      const items = await client.listItems('events', {
        wfstatus: ['approved', 'archived', 'deleted'],
        sortField: 'lastupdated',
        sortOrder: 'ASC',
        size: 2000,
        lastupdated: '2026-03-01T11:00:00.000123+01:00',
      });
      const request = seen[before]!;
      expect(request.url).toBe(
        '/api/events?wfstatus=approved,archived,deleted&sortField=lastupdated&sortOrder=ASC&size=2000&lastupdated=2026-03-01T11%3A00%3A00.000123%2B01%3A00',
      );
      expect(request).toMatchObject({ method: 'GET', authorization: 'Bearer cst_abc', userAgent: USER_AGENT });
      // Fields the spec does not name are tolerated and kept.
      expect(items).toEqual([event('trc-1')]);
    } finally {
      await client.close();
    }
  });

  it('when the service answers an error, then a ServiceError carries status, URL and the error body', async () => {
    routes.set('/api/locations', () => ({
      status: 400,
      body: { status: 400, error: 'Bad Request', message: 'size must not exceed 2000 (requested: 5000)' },
    }));
    const client = createContentClient({ baseUrl: `${origin}/api`, transport: createTransport({ retry: false }) });
    const err = await client.listItems('locations', { size: 5000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({
      status: 400,
      url: `${origin}/api/locations?size=5000`,
      message: expect.stringContaining('size must not exceed 2000'),
    });
  });

  it('when a list answer is not an array, then it is refused', async () => {
    routes.set('/api/routes', () => ({ status: 200, body: { items: [] } }));
    const client = createContentClient({ baseUrl: `${origin}/api`, fetch });
    await expect(client.listItems('routes')).rejects.toThrow(/bare JSON array/);
  });

  it('when throttled, then the shared transport waits Retry-After and the caller sees the wait [ERR-006]', async () => {
    let calls = 0;
    routes.set('/api/venues', () =>
      ++calls === 1
        ? {
            status: 429,
            body: { status: 429, error: 'Too Many Requests', message: 'rate limit exceeded' },
            headers: { 'retry-after': '1' },
          }
        : { status: 200, body: [] },
    );
    const waits: WaitEvent[] = [];
    let now = Date.now();
    const transport = createTransport({
      retry: { onWait: (w) => waits.push(w), clock: () => now, sleep: async (ms) => void (now += ms) },
    });
    const client = createContentClient({ baseUrl: `${origin}/api`, transport });
    try {
      expect(await client.listItems('venues', { size: 10 })).toEqual([]);
      expect(waits.map((w) => [w.status, w.delayMs])).toEqual([[429, 1000]]);
    } finally {
      await client.close(); // not the shared transport's: it still works
      expect((await transport.fetch(`${origin}/api/venues`)).status).toBe(200);
      await transport.close();
    }
  });

  it('when reading one item, then 404 is undefined and other answers are the item', async () => {
    routes.set('/api/eventgroups/7d1c', () => ({ status: 200, body: { ...event('trc-g'), entitytype: 'EVENTGROUP' } }));
    const client = createContentClient({ baseUrl: `${origin}/api`, fetch, userAgent: 'mirror/2' });
    const before = seen.length;
    expect(await client.getItem('eventgroups', '7d1c')).toMatchObject({ trcid: 'trc-g', entitytype: 'EVENTGROUP' });
    expect(seen[before]!.userAgent).toBe('mirror/2');
    expect(await client.getItem('events', 'gone')).toBeUndefined();
    await expect(client.getItem('nope' as 'events', 'x')).rejects.toThrow(RangeError);
  });

  it('when a webhook resourceUri names another host, then it is read through the client base URL only', async () => {
    routes.set('/api/events/3f1b', () => ({ status: 200, body: event('trc-3f1b') }));
    const client = createContentClient({ baseUrl: `${origin}/api`, token: 'cst_abc', fetch });
    const before = seen.length;
    expect(await client.getResource('https://content.example.com/api/events/3f1b')).toMatchObject({
      trcid: 'trc-3f1b',
    });
    expect(seen.slice(before).map((s) => s.url)).toEqual(['/api/events/3f1b']);
    expect(await client.getResource(`${origin}/api/events/deleted-one`)).toBeUndefined();
    await expect(client.getResource('https://content.example.com/api/assets')).rejects.toThrow(
      /not an item URL|unknown collection/,
    );
  });

  it('when polling assets, then the typed query is sent and the page returned', async () => {
    routes.set('/api/assets', () => ({
      status: 200,
      body: { size: 2, page: 1, hits: 3, results: [{ id: 'a', created: '2026-08-01T00:00:00Z' }] },
    }));
    const client = createContentClient({ baseUrl: `${origin}/api`, fetch });
    const before = seen.length;
    const page = await client.listAssets({
      sortField: 'modified',
      sortOrder: 'asc',
      size: 2,
      page: 1,
      lastupdated: '2026-08-01',
    });
    expect(seen[before]!.url).toBe('/api/assets?sortField=modified&sortOrder=asc&size=2&page=1&lastupdated=2026-08-01');
    expect(page).toMatchObject({ hits: 3, results: [{ id: 'a' }] });
  });

  it('when the raw typed client is used, then every spec operation is there with the same headers', async () => {
    routes.set('/api/dictionary', () => ({
      status: 200,
      body: {
        resources: [{ name: 'categorizationOntology', href: `${origin}/api/dictionary/categorizationOntology` }],
      },
    }));
    const client = createContentClient({ baseUrl: `${origin}/api`, token: 't', fetch });
    const before = seen.length;
    const { data, error } = await client.GET('/dictionary');
    expect(error).toBeUndefined();
    expect(data?.resources[0]?.name).toBe('categorizationOntology');
    expect(seen[before]!.authorization).toBe('Bearer t');
  });
});
