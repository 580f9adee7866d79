// The scripted fake behind real HTTP (`GET /api/{collection}`), for end-to-end tests of the
// typed client, the transport and the CLI: bearer check, optional 429 throttling with
// Retry-After, the interface's error shape.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { COLLECTIONS, type Collection, type ListItemsQuery } from '../types.ts';
import { FakeServiceError, type FakeContentService, type FakeListQuery } from './fakeContentService.ts';

export interface FakeHttpServer {
  /** Ends in `/api`. */
  baseUrl: string;
  /** Answer every n-th request with 429 and `Retry-After: 1` (0: never). */
  throttleEvery: number;
  /** Answer this many next requests with 429 and `Retry-After: 1`. */
  throttleNext: number;
  statesTotal: boolean;
  readonly requests: number;
  close(): Promise<void>;
}

export async function serveFake(service: FakeContentService, options: { token: string }): Promise<FakeHttpServer> {
  let requests = 0;
  const state = { throttleEvery: 0, throttleNext: 0, statesTotal: false };
  const server = http.createServer(async (req, res) => {
    requests++;
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${options.token}`)
      return send(401, { status: 401, error: 'Unauthorized', message: 'bad token' });
    if (
      (state.throttleEvery > 0 && requests % state.throttleEvery === 0) ||
      (state.throttleNext > 0 && state.throttleNext--)
    ) {
      return send(
        429,
        { status: 429, error: 'Too Many Requests', message: 'rate limit exceeded' },
        { 'retry-after': '1', 'x-ratelimit-limit': '20' },
      );
    }
    const collection = url.pathname.replace(/^\/api\//, '') as Collection;
    if (!COLLECTIONS.includes(collection)) return send(404, { status: 404, error: 'Not Found', message: url.pathname });
    const q = Object.fromEntries(url.searchParams) as Record<string, string>;
    const query: FakeListQuery = {
      wfstatus: (q.wfstatus ?? '').split(',') as ListItemsQuery['wfstatus'],
      sortField: 'lastupdated',
      sortOrder: q.sortOrder?.toUpperCase() === 'DESC' ? 'DESC' : 'ASC',
      size: Number(q.size),
      ...(q.lastupdated !== undefined ? { lastupdated: q.lastupdated } : {}),
    };
    try {
      const total = state.statesTotal ? { 'x-total-count': String(service.count(collection, query)) } : undefined;
      send(200, await service.listItems(collection, query), total);
    } catch (e) {
      if (e instanceof FakeServiceError)
        return send(e.status, { status: e.status, error: 'Bad Request', message: e.message });
      send(500, { status: 500, error: 'Internal Server Error', message: String(e) });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    get throttleEvery() {
      return state.throttleEvery;
    },
    set throttleEvery(n: number) {
      state.throttleEvery = n;
    },
    get throttleNext() {
      return state.throttleNext;
    },
    set throttleNext(n: number) {
      state.throttleNext = n;
    },
    /** Whether list answers state their item count in X-Total-Count, as some services do. */
    get statesTotal() {
      return state.statesTotal;
    },
    set statesTotal(on: boolean) {
      state.statesTotal = on;
    },
    get requests() {
      return requests;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
