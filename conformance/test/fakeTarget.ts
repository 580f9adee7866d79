// A tiny Content Service for testing the suite itself: just enough of the interface for the
// framework's checks, correct by default, with named faults to switch on one at a time.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { sendJson, startServer } from './startServer.ts';
import type { TestServer } from './startServer.ts';

export const GOOD_TOKEN = 'fake-consumer-token-0001';

export type Fault =
  | 'listWrappedInObject'
  | 'listWithoutAuth'
  | 'unauthorizedAs403'
  | 'sizeCapIgnored'
  | 'sizeCapWrongMessage'
  | 'sizeCapEarly'
  | 'missingRateLimitHeaders'
  | 'healthNeedsToken'
  | 'itemMissingTrcid';

export interface FakeTargetOptions {
  faults?: readonly Fault[];
  /** The server's clock (its Date header). */
  now?: () => Date;
  /** Items per collection. */
  items?: number;
  basePath?: string;
}

const ENTITY: Record<string, string> = {
  events: 'EVENEMENT',
  locations: 'LOCATIE',
  venues: 'VENUE',
  eventgroups: 'EVENTGROUP',
  routes: 'ROUTE',
};
const RATE = { 'x-ratelimit-limit': '20', 'x-ratelimit-policy': '20;w=1;burst=40' };

export async function startFakeTarget(
  options: FakeTargetOptions = {},
): Promise<TestServer & { baseUrl: string; requests: string[] }> {
  const faults = new Set(options.faults ?? []);
  const now = options.now ?? (() => new Date());
  const base = options.basePath ?? '/api';
  const requests: string[] = [];
  const store = Object.fromEntries(
    Object.entries(ENTITY).map(([name, entitytype]) => [
      name,
      Array.from({ length: options.items ?? 3 }, (_, i) => ({
        id: randomUUID(),
        trcid: `trc-${name}-${i}`,
        entitytype,
        creationdate: '2026-01-01T00:00:00.000Z',
        lastupdated: `2026-01-01T00:00:0${i % 10}.000Z`,
        wfstatus: 'approved',
        published: true,
      })),
    ]),
  );

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    res.sendDate = false;
    res.setHeader('date', now().toUTCString());
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${req.method} ${url.pathname}${url.search} ${req.headers.authorization ? 'auth' : 'anon'}`);
    if (!url.pathname.startsWith(`${base}/`))
      return sendJson(res, 404, { status: 404, error: 'Not Found', message: 'no such path' });
    const path = url.pathname.slice(base.length);
    const authorized = req.headers.authorization === `Bearer ${GOOD_TOKEN}`;
    const refuse = (headers: Record<string, string> = {}) =>
      faults.has('unauthorizedAs403')
        ? sendJson(res, 403, { status: 403, error: 'Forbidden', message: 'no' }, headers)
        : sendJson(
            res,
            401,
            { status: 401, error: 'Unauthorized', message: 'Authorization header with a Bearer token is required' },
            { 'www-authenticate': 'Bearer', ...headers },
          );

    if (path === '/actuator/health') {
      if (faults.has('healthNeedsToken') && !authorized) return refuse();
      return sendJson(res, 200, { status: 'UP' });
    }
    const collection = /^\/(events|locations|venues|eventgroups|routes)$/.exec(path)?.[1];
    if (collection && req.method === 'GET') {
      const rate = faults.has('missingRateLimitHeaders') ? {} : RATE;
      if (!authorized && !faults.has('listWithoutAuth')) return refuse(rate);
      const size = Number(url.searchParams.get('size') ?? '20');
      const enforced = now() >= new Date('2026-10-31T23:00:00Z') || faults.has('sizeCapEarly');
      if (size > 2000 && !faults.has('sizeCapIgnored') && enforced) {
        const message = faults.has('sizeCapWrongMessage')
          ? `size must be at most 2000`
          : `size must not exceed 2000 (requested: ${size})`;
        return sendJson(res, 400, { status: 400, error: 'Bad Request', message }, rate);
      }
      let items: object[] = store[collection]!.slice(0, Math.min(size, 2000));
      if (faults.has('itemMissingTrcid')) items = items.map((item) => ({ ...item, trcid: undefined }));
      return sendJson(res, 200, faults.has('listWrappedInObject') ? { results: items } : items, rate);
    }
    return sendJson(res, 404, { status: 404, error: 'Not Found', message: `no route ${path}` });
  };
  const server = await startServer(handler);
  return { ...server, baseUrl: `${server.url}${base}`, requests };
}
