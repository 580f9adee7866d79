// The suite's partner endpoint for an inbound feed: an HTTPS server on a fixed port that answers
// the partner document the current check wants the target's feed to fetch (DEC-FEED-001:
// `{entries: [...]}`, each entry TRCItem-shaped with the partner's own `id` and an optional
// `feedInfoId`). The vendor points its feed (--feed-id) at `url` once; each check then serves
// its own entries, tagged with the run id, and runs the feed with fetchAndConvertOnce.
//
//   main document   <url>                           every entry, in order (or a failure on purpose)
//   sub-feed        <url without .json>/<id>.json   the entries whose feedInfoId is <id>
//
// so a sub-feed works whether the feed declares it without a URL (the main document's entries
// with that feedInfoId) or with its own URL (DEC-FEED-008). Every request is logged with when it
// arrived and when it was answered.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { Server } from 'node:https';

export type PartnerEntry = Record<string, unknown> & { id: string };

export interface PartnerRequest {
  method: string;
  path: string;
  /** `main`, `sub:<feedInfoId>` or `unknown`. */
  document: string;
  userAgent: string | undefined;
  /** Epoch milliseconds. */
  receivedAt: number;
  /** When the answer was sent; undefined while it is held (delayMs). */
  answeredAt?: number;
  status: number;
  /** Entries in the answer. */
  entries: number;
}

export interface ServeOptions {
  /** Hold every answer this long (so that a run is still in progress when the suite looks). */
  delayMs?: number;
  /**
   * Break the main document: `status` answers it with that HTTP status (an error body), and
   * `redirect` with a 302 to the same document (`?redirected=1`, which does answer the entries).
   */
  fail?: { status: number } | 'redirect';
}

export interface FeedPartner {
  /** The main document's URL as the target fetches it. */
  readonly url: string;
  /** Where the server listens. */
  readonly localUrl: string;
  /** The sub-feed document of `feedInfoId` (for a feed that declares it with its own URL). */
  subFeedUrl(feedInfoId: string): string;
  /** Serve these entries from now on (the main document; sub-feeds by feedInfoId). */
  serve(entries: readonly PartnerEntry[], options?: ServeOptions): void;
  /** Serve an empty document (between checks: a poll of the target then finds nothing). */
  clear(): void;
  /** The entries served now. */
  readonly entries: readonly PartnerEntry[];
  readonly requests: readonly PartnerRequest[];
  close(): Promise<void>;
}

export interface FeedPartnerOptions {
  host: string;
  port: number;
  /** Public URL of the main document (its path is served). */
  url: string;
  tls: { key: string; cert: string };
}

/** `<path without .json>/<feedInfoId>.json`. */
function subFeedPath(mainPath: string, feedInfoId: string): string {
  return `${mainPath.replace(/\.json$/i, '')}/${encodeURIComponent(feedInfoId)}.json`;
}

export async function startFeedPartner(options: FeedPartnerOptions): Promise<FeedPartner> {
  const publicUrl = new URL(options.url);
  const mainPath = publicUrl.pathname;
  const subPrefix = `${mainPath.replace(/\.json$/i, '')}/`;
  let entries: readonly PartnerEntry[] = [];
  let delayMs = 0;
  let fail: ServeOptions['fail'];
  const requests: PartnerRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const [path, query = ''] = (req.url ?? '/').split('?') as [string, string?];
    const method = req.method ?? 'GET';
    let document = 'unknown';
    let body: unknown = { message: `nothing here: the partner document is ${mainPath}` };
    let status = 404;
    const headers: Record<string, string> = {};
    if (method !== 'GET' && method !== 'HEAD') {
      status = 405;
      body = { message: 'the partner document is read with GET' };
    } else if (path === mainPath && fail === 'redirect' && query !== 'redirected=1') {
      document = 'main';
      status = 302;
      headers.location = `${mainPath}?redirected=1`;
      body = { message: 'moved' };
    } else if (path === mainPath && typeof fail === 'object') {
      document = 'main';
      status = fail.status;
      body = { message: `the partner endpoint answers ${fail.status} (served on purpose by the conformance suite)` };
    } else if (path === mainPath) {
      document = 'main';
      status = 200;
      body = { entries };
    } else if (path.startsWith(subPrefix) && path.endsWith('.json')) {
      const feedInfoId = decodeURIComponent(path.slice(subPrefix.length, -'.json'.length));
      document = `sub:${feedInfoId}`;
      status = 200;
      body = { entries: entries.filter((e) => e.feedInfoId === feedInfoId) };
    }
    const log: PartnerRequest = {
      method,
      path,
      document,
      userAgent: req.headers['user-agent'],
      receivedAt: Date.now(),
      status,
      entries: status === 200 && document !== 'unknown' ? (body as { entries: unknown[] }).entries.length : 0,
    };
    requests.push(log);
    const text = JSON.stringify(body);
    const send = () => {
      log.answeredAt = Date.now();
      res.writeHead(status, {
        ...headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        'cache-control': 'no-store',
      });
      res.end(method === 'HEAD' ? undefined : text);
    };
    if (delayMs <= 0 || document === 'unknown') return send();
    const timer = setTimeout(() => {
      timers.delete(timer);
      send();
    }, delayMs);
    timers.add(timer);
  };

  const server: Server = createServer({ key: options.tls.key, cert: options.tls.cert }, (req, res) => {
    // The request body (there should be none) is drained; the answer does not depend on it.
    req.resume();
    answer(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    url: publicUrl.href,
    localUrl: `https://${host}:${options.port}${mainPath}`,
    subFeedUrl: (feedInfoId) => new URL(subFeedPath(mainPath, feedInfoId), publicUrl).href,
    serve(next, serveOptions = {}) {
      entries = next.map((e) => structuredClone(e));
      delayMs = serveOptions.delayMs ?? 0;
      fail = serveOptions.fail;
    },
    clear() {
      entries = [];
      delayMs = 0;
      fail = undefined;
    },
    get entries() {
      return entries;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Throws when `host:port` cannot be listened on (taken, or not an address of this machine). */
export async function assertPortFree(host: string, port: number): Promise<void> {
  const { createServer: createNetServer } = await import('node:net');
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
