import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpBackfill } from './http.ts';

// The backfill against a small keyset server over node:http: pages from an in-memory list,
// lastupdated >= the mark (inclusive), ascending, `size` items per page.

interface Item {
  id: string;
  lastupdated: string;
}
interface PageServer {
  baseUrl: string;
  requests: string[];
  close(): Promise<void>;
}

const WFSTATUS = ['approved', 'archived', 'deleted'];

async function startPageServer(
  itemsOf: Record<string, Item[]>,
  options: {
    serialize?: (item: Item) => unknown;
    corrupt?: (json: string) => string;
    fail?: (collection: string, mark: string | null) => boolean;
    hangUp?: (mark: string | null) => boolean;
  } = {},
): Promise<PageServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://localhost');
    requests.push(`${url.pathname}?${url.searchParams}`);
    const collection = url.pathname.replace(/^\/api\//, '');
    const mark = url.searchParams.get('lastupdated');
    if (options.hangUp?.(mark) === true) {
      req.socket.destroy();
      return;
    }
    if (options.fail?.(collection, mark) === true) {
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: `store down for ${collection}` }));
      return;
    }
    const size = Number(url.searchParams.get('size'));
    const page = (itemsOf[collection] ?? [])
      .filter((item) => mark === null || item.lastupdated >= mark)
      .sort((a, b) => a.lastupdated.localeCompare(b.lastupdated) || a.id.localeCompare(b.id))
      .slice(0, size);
    const json = JSON.stringify(page.map(options.serialize ?? ((item) => item)));
    res.writeHead(200, { 'content-type': 'application/json' }).end(options.corrupt?.(json) ?? json);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    requests,
    close: () =>
      new Promise((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error)))),
  };
}

/** `count` items of a collection, `perStamp` of them sharing each lastupdated. */
function itemsWithTies(prefix: string, count: number, perStamp: number): Item[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${String(i).padStart(3, '0')}`,
    lastupdated: new Date(Date.UTC(2024, 0, 1, 0, 0, Math.floor(i / perStamp))).toISOString(),
  }));
}

function pageUrl(collection: string, size: number, mark?: string): string {
  const query = new URLSearchParams({
    wfstatus: WFSTATUS.join(','),
    sortField: 'lastupdated',
    sortOrder: 'ASC',
    size: String(size),
  });
  if (mark !== undefined) query.set('lastupdated', mark);
  return `/api/${collection}?${query}`;
}

let server: PageServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const READS = ['items', 'keys'] as const;

describe('httpBackfill', () => {
  it.each(READS)(
    "when pages end inside a group of equal lastupdated values (read: %s), then both variants count every item once and the prefetching one sends the same requests plus one after each short page, and asks for each collection's first page while the previous one is synced",
    async (read) => {
      const events = itemsWithTies('e', 23, 3); // boundaries after items 5, 10, 15, 20 fall inside groups of 3
      const venues = itemsWithTies('v', 9, 2);
      server = await startPageServer({ events, venues });
      const options = { collections: ['events', 'venues'], size: 5, wfstatus: WFSTATUS, read };

      const sequential = await httpBackfill(server.baseUrl, 'token', { ...options, prefetch: false });
      const sequentialRequests = server.requests.splice(0);
      const prefetching = await httpBackfill(server.baseUrl, 'token', { ...options, prefetch: true });

      expect(sequential).toMatchObject({ items: 32, wastedRequests: 0, mispredictions: 0, read });
      expect(prefetching).toMatchObject({
        items: 32,
        pages: sequential.pages,
        bytes: sequential.bytes,
        wastedRequests: 2,
        mispredictions: 0,
      });
      const lastOf = (items: Item[]) => items.at(-1)!.lastupdated;
      const perCollection = (collection: string) =>
        sequentialRequests.filter((url) => url.startsWith(`/api/${collection}?`));
      const prefetchingRequests = server.requests;
      const prefetched = (collection: string) =>
        prefetchingRequests.filter((url) => url.startsWith(`/api/${collection}?`));
      expect(prefetched('events')).toEqual([...perCollection('events'), pageUrl('events', 5, lastOf(events))]);
      expect(prefetched('venues')).toEqual([...perCollection('venues'), pageUrl('venues', 5, lastOf(venues))]);
      expect(prefetchingRequests).toHaveLength(sequentialRequests.length + 2);
      expect(prefetchingRequests.indexOf(perCollection('venues')[0]!)).toBeLessThan(
        prefetchingRequests.indexOf(perCollection('events').at(-1)!),
      );
    },
  );

  it.each(READS)(
    'when each item puts lastupdated before a nested object with its own lastupdated (read: %s), then the speculation misses, the request is sent again with the real mark and the count is right',
    async (read) => {
      const events = itemsWithTies('e', 12, 1);
      const nested = (item: Item) => ({
        id: item.id,
        lastupdated: item.lastupdated,
        calendar: { lastupdated: '2001-02-03T04:05:06.000Z', note: 'not the mark' },
      });
      server = await startPageServer({ events }, { serialize: nested });

      const result = await httpBackfill(server.baseUrl, 'token', {
        collections: ['events'],
        size: 4,
        wfstatus: WFSTATUS,
        prefetch: true,
        read,
      });

      expect(result.items).toBe(12);
      expect(result.pages).toBe(4); // 4 + 3 + 3 + 2 new items, the boundary item repeated on each later page
      expect(result.mispredictions).toBe(3);
      expect(result.wastedRequests).toBe(1);
      expect(server.requests.filter((url) => url.includes('2001-02-03'))).toHaveLength(4);
    },
  );

  it.each(['answers 500', 'hangs up'])(
    'when a speculative request fails (the server %s) while the page is read, then its answer is discarded and the backfill completes',
    async (failure) => {
      const events = itemsWithTies('e', 10, 1);
      const nested = (item: Item) => ({
        id: item.id,
        lastupdated: item.lastupdated,
        calendar: { lastupdated: 'bogus' },
      });
      const isBogus = (mark: string | null) => mark === 'bogus';
      server = await startPageServer(
        { events },
        failure === 'hangs up'
          ? { serialize: nested, hangUp: isBogus }
          : { serialize: nested, fail: (_, mark) => isBogus(mark) },
      );

      const result = await httpBackfill(server.baseUrl, 'token', {
        collections: ['events'],
        size: 3,
        wfstatus: WFSTATUS,
        prefetch: true,
        read: 'keys',
      });

      expect(result.items).toBe(10);
      expect(result.mispredictions).toBeGreaterThan(0);
    },
  );

  it.each([false, true])(
    'when a page is answered with 500 (prefetch: %s), then the backfill rejects with the status and the start of the body',
    async (prefetch) => {
      server = await startPageServer({ events: itemsWithTies('e', 10, 1) }, { fail: (_, mark) => mark !== null });

      await expect(
        httpBackfill(server.baseUrl, 'token', {
          collections: ['events'],
          size: 3,
          wfstatus: WFSTATUS,
          prefetch,
          read: 'items',
        }),
      ).rejects.toThrow(/answered 500: \{"message":"store down for events"\}/);
    },
  );

  it.each(READS)('when a page is cut short (read: %s), then the backfill rejects with a SyntaxError', async (read) => {
    server = await startPageServer({ events: itemsWithTies('e', 10, 1) }, { corrupt: (json) => json.slice(0, -2) });

    await expect(
      httpBackfill(server.baseUrl, 'token', {
        collections: ['events'],
        size: 3,
        wfstatus: WFSTATUS,
        prefetch: true,
        read,
      }),
    ).rejects.toThrow(SyntaxError);
  });

  it.each(READS)(
    'when an item has no lastupdated (read: %s), then the backfill rejects naming the item',
    async (read) => {
      server = await startPageServer(
        { events: itemsWithTies('e', 10, 1) },
        { serialize: (item) => (item.id === 'e-001' ? { id: item.id } : item) },
      );

      await expect(
        httpBackfill(server.baseUrl, 'token', {
          collections: ['events'],
          size: 3,
          wfstatus: WFSTATUS,
          prefetch: false,
          read,
        }),
      ).rejects.toThrow(/item 1 has no string id and lastupdated/);
    },
  );
});
