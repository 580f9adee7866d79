// The load generator's side: sequential requests, a keyset backfill over HTTP (optionally prefetching), autocannon runs.
// All of it runs in the bench's own process, not in the service's.

import { createRequire } from 'node:module';
import { Client } from 'undici';
import { LeanGetConnection } from './leanGet.ts';
import { stampInBody } from '../../client/sync/keyset.ts';
import { pageElements } from '../../client/sync/pageKeys.ts';
import { countFresh, type BackfillResult, type TimedRequests } from './protocol.ts';

/** One keep-alive connection for sequential requests. */
function clientFor(url: URL): Client {
  return new Client(url.origin, { keepAliveTimeout: 30_000, bodyTimeout: 120_000, headersTimeout: 120_000 });
}

/** The headers of every bench request. */
const requestHeaders = (token: string, extra: Record<string, string> = {}): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  accept: 'application/json',
  ...extra,
});

async function get(
  client: Client,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: Buffer }> {
  const response = await client.request({ method: 'GET', path, headers });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, body };
}

/**
 * `iterations` requests one after the other on one connection, each timed from sending to the last
 * byte of the body received (the body is not parsed). `reader`: 'lean' (default) counts the body's
 * bytes as they arrive (leanGet.ts), so that the figure is the service's, and also times the first
 * byte of each body; 'undici' takes the body in as a Node client would.
 */
export async function sequentialLatency(
  url: string,
  token: string,
  options: { iterations: number; warmup: number; headers?: Record<string, string>; reader?: 'lean' | 'undici' },
): Promise<TimedRequests> {
  const target = new URL(url);
  const path = `${target.pathname}${target.search}`;
  const headers = requestHeaders(token, options.headers);
  const reader = options.reader === 'undici' ? undiciReader(target) : leanReader(target);
  try {
    const samples: number[] = [];
    const firstBytes: number[] = [];
    let bytes = 0;
    for (let i = 0; i < options.warmup + options.iterations; i++) {
      const started = performance.now();
      const answer = await reader.get(path, headers);
      if (i >= options.warmup) {
        samples.push(performance.now() - started);
        if (answer.firstByteMs !== undefined) firstBytes.push(answer.firstByteMs);
      }
      expectOk(url, answer.status, () => answer.head);
      bytes = answer.bytes;
    }
    return { samples, bytes, ...(firstBytes.length === 0 ? {} : { firstBytes }) };
  } finally {
    await reader.close();
  }
}

interface Reader {
  get(
    path: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; bytes: number; head: string; firstByteMs?: number }>;
  close(): Promise<void> | void;
}

function leanReader(origin: URL): Reader {
  const connection = new LeanGetConnection(origin);
  return { get: (path, headers) => connection.get(path, headers), close: () => connection.close() };
}

function undiciReader(origin: URL): Reader {
  const client = clientFor(origin);
  return {
    async get(path, headers) {
      const { status, body } = await get(client, path, headers);
      return { status, bytes: body.length, head: bodyStart(body) };
    },
    close: () => client.close(),
  };
}

/** Throws unless the answer is a 200, with the start of its body. */
function expectOk(url: string, status: number, head: () => string): void {
  if (status !== 200) throw new Error(`GET ${url} answered ${status}: ${head()}`);
}

const bodyStart = (body: Buffer): string => body.toString('utf8', 0, 300);

export interface HttpBackfillOptions {
  collections: readonly string[];
  size: number;
  wfstatus: readonly string[];
  /**
   * Send the next page's request before parsing the current page, with a mark read from the tail of
   * its raw body, and verify it after reading the page (see httpBackfill).
   */
  prefetch: boolean;
  /**
   * How the client reads a page: `items` builds every item (JSON.parse, as a client that keeps
   * them as objects); `keys` checks the page against the JSON grammar and reads each item's id
   * and lastupdated, all the procedure itself needs (the client's pageElements), building no objects.
   */
  read: 'items' | 'keys';
}

export interface HttpBackfillResult extends BackfillResult {
  read: 'items' | 'keys';
  /** Time reading pages: JSON.parse and the UTF-8 decoding before it, or pageElements. */
  readMs: number;
  /** Speculative requests sent after a collection's short page, their answers discarded. */
  wastedRequests: number;
  /** Speculative requests whose mark was not the real one: answer discarded, request sent again. */
  mispredictions: number;
}

interface PageRequest {
  mark: string | undefined;
  url: string;
  answer: Promise<{ status: number; body: Buffer }>;
}

/**
 * The interface's sync procedure over HTTP, one collection after the other: sortField=lastupdated,
 * sortOrder=ASC, the wanted statuses, the last item's lastupdated as the next inclusive bound,
 * until a short page. Each page is read whole (see `read`): the mark is the last item's
 * lastupdated, and the items at the mark tell the repeated ones from the new.
 *
 * With `prefetch`, the client overlaps its reading of a page with the service's work on the next page: as
 * soon as a page's body has arrived, the next request goes out with the mark read from the body's
 * tail (stampInBody, as the client's sync does), and only then is the page read. After reading, the speculation is
 * checked: after a short page its answer is discarded (wastedRequests); if the real mark differs,
 * its answer is discarded and the request sent again with the real mark (mispredictions). The
 * pages used are therefore those of the sequential procedure, for any server and member order.
 * Each collection's first page is asked for while the previous collection is synced.
 */
export async function httpBackfill(
  baseUrl: string,
  token: string,
  options: HttpBackfillOptions,
): Promise<HttpBackfillResult> {
  const target = new URL(baseUrl);
  const client = clientFor(target);
  // With prefetch, each collection's first page (which needs no mark) is asked for on a second
  // connection while the previous collection is synced, so that no page waits for the service.
  const firstPages = options.prefetch ? clientFor(target) : client;
  const requestPage = (collection: string, mark: string | undefined, via: Client = client): PageRequest => {
    const query = new URLSearchParams({
      wfstatus: options.wfstatus.join(','),
      sortField: 'lastupdated',
      sortOrder: 'ASC',
      size: String(options.size),
    });
    if (mark !== undefined) query.set('lastupdated', mark);
    const answer = get(via, `${target.pathname}/${collection}?${query}`, requestHeaders(token));
    // Awaited later or discarded: a failure while a page is being read is never an unhandled rejection.
    answer.catch(() => {});
    return { mark, url: `${baseUrl}/${collection}?${query}`, answer };
  };
  /** Waits for a speculative answer nobody uses (its body read to the end), whatever its outcome. */
  const discard = async (request: PageRequest): Promise<void> => {
    await request.answer.catch(() => {});
  };
  let items = 0,
    pages = 0,
    bytes = 0,
    readMs = 0,
    wastedRequests = 0,
    mispredictions = 0;
  const started = performance.now();
  let nextFirst: PageRequest | undefined;
  try {
    for (const [index, collection] of options.collections.entries()) {
      let mark: string | undefined;
      let atMark = new Set<string>();
      let request = nextFirst ?? requestPage(collection, mark);
      const following = options.collections[index + 1];
      nextFirst =
        options.prefetch && following !== undefined ? requestPage(following, undefined, firstPages) : undefined;
      for (;;) {
        const response = await request.answer;
        expectOk(request.url, response.status, () => bodyStart(response.body));
        pages++;
        bytes += response.body.length;
        const guess = options.prefetch ? stampInBody(response.body, 'last') : undefined;
        const speculative = guess === undefined ? undefined : requestPage(collection, guess);
        // undici writes a request on an idle keep-alive socket only from the event loop's check
        // phase (it first lets pending bytes on the socket arrive): yield once, so that the request
        // is with the service while this page is read.
        if (speculative !== undefined) await new Promise((resolve) => setImmediate(resolve));
        const reading = performance.now();
        const page = keysOfPage(response.body, options.read, request.url);
        readMs += performance.now() - reading;
        const next = countFresh(page, mark, atMark);
        items += next.fresh;
        mark = next.mark;
        atMark = next.atMark;
        const done = page.length < options.size;
        if (speculative !== undefined && (done || speculative.mark !== mark)) {
          await discard(speculative);
          if (done) wastedRequests++;
          else mispredictions++;
        }
        if (done) break;
        request = speculative !== undefined && speculative.mark === mark ? speculative : requestPage(collection, mark);
      }
    }
  } finally {
    if (nextFirst !== undefined) await discard(nextFirst);
    await client.close();
    if (firstPages !== client) await firstPages.close();
  }
  const ms = performance.now() - started;
  return {
    items,
    pages,
    ms,
    itemsPerSecond: items / (ms / 1000),
    bytes,
    read: options.read,
    readMs,
    wastedRequests,
    mispredictions,
  };
}

const KEYSET_MEMBERS = ['id', 'lastupdated'] as const;

/** Each item's id and lastupdated, read as `read` says; both must be strings. */
function keysOfPage(body: Buffer, read: 'items' | 'keys', url: string): Array<{ id: string; lastupdated: string }> {
  const items =
    read === 'keys'
      ? pageElements(body, KEYSET_MEMBERS).map(({ values: [id, lastupdated] }) => ({ id, lastupdated }))
      : (JSON.parse(body.toString('utf8')) as Array<{ id?: unknown; lastupdated?: unknown }>);
  if (!Array.isArray(items)) throw new Error(`GET ${url} answered no array`);
  items.forEach((item, index) => {
    if (typeof item?.id !== 'string' || typeof item.lastupdated !== 'string')
      throw new Error(`GET ${url}: item ${index} has no string id and lastupdated`);
  });
  return items as Array<{ id: string; lastupdated: string }>;
}

// autocannon ships no types: the part of its API used here and by scripts/load.ts.
export interface AutocannonRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}
export interface AutocannonClient {
  setRequests(requests: AutocannonRequest[]): void;
}
export interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  connectionRate?: number;
  overallRate?: number;
  timeout?: number;
  requests?: AutocannonRequest[];
  setupClient?: (client: AutocannonClient) => void;
  idReplacement?: boolean;
}
export interface AutocannonResult {
  duration: number;
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  requests: { total: number; average: number };
  throughput: { average: number; total?: number };
  errors: number;
  timeouts: number;
  '2xx': number;
  '4xx': number;
  '5xx': number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}
export interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(event: 'response', listener: (client: unknown, statusCode: number) => void): void;
}
export const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: AutocannonOptions,
) => AutocannonInstance;

export interface LoadResult {
  requestsPerSecond: number;
  requests: number;
  non2xx: number;
  errors: number;
  latencyP50: number;
  latencyP99: number;
  durationS: number;
  connections: number;
  /** Average response size (bodies and headers, as autocannon counts them). */
  bytesPerRequest: number;
}

/** autocannon against one URL for `durationS` seconds. */
export async function loadTest(
  url: string,
  options: { token: string; connections: number; durationS: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const base = {
    url,
    connections: options.connections,
    headers: { authorization: `Bearer ${options.token}`, accept: 'application/json', ...options.headers },
  };
  const result = await autocannon({ ...base, duration: options.durationS });
  return {
    requestsPerSecond: result['2xx'] / result.duration,
    requests: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    durationS: result.duration,
    connections: options.connections,
    bytesPerRequest:
      result['2xx'] + result.non2xx === 0
        ? 0
        : (result.throughput.total ?? result.throughput.average * result.duration) / (result['2xx'] + result.non2xx),
  };
}
