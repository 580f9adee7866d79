// A `fetch`-compatible function over an undici keep-alive Agent, with timeouts, a User-Agent
// naming this library, and the retry policy on every call. openapi-fetch takes it as
// `createClient({ baseUrl, fetch: transport.fetch })`.
//
// Node's global fetch is undici (7.x in Node 24); the npm undici Agent (same major) is passed to
// it as `dispatcher`, so responses are the global Response class openapi-fetch expects.

import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import pkg from '../../package.json' with { type: 'json' };
import { createRetryPolicy, type RetryOptions, type RetryPolicy } from './retry.ts';

// Only undici's Agent, not its index (fetch, WebSocket, caches, mocks and more): loading all of
// undici is most of a content-sync run's start. The same class the index exports; an undici
// whose files are laid out differently gets the index.
const Agent = loadAgent();

function loadAgent(): typeof UndiciAgent {
  const require = createRequire(import.meta.url);
  try {
    return require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
  } catch {
    return (require('undici') as { Agent: typeof UndiciAgent }).Agent;
  }
}

export const USER_AGENT = `content-service-client/${pkg.version}`;

export interface TransportOptions {
  /** Default `content-service-client/<version>`; a caller's own header wins. */
  userAgent?: string;
  /** Default 10 s. */
  connectTimeoutMs?: number;
  /** Time until the response headers arrive. Default 30 s. */
  headersTimeoutMs?: number;
  /** Longest silence while the body streams. Default 60 s. */
  bodyTimeoutMs?: number;
  /** Idle keep-alive sockets are closed after this. Default 30 s. */
  keepAliveTimeoutMs?: number;
  /** Sockets per origin. Default 16. */
  connections?: number;
  /** Retry policy options, or `false` to send every request once. */
  retry?: RetryOptions | false;
  /** Sent on every request unless the request sets it (e.g. `{ authorization: 'Bearer …' }`). */
  headers?: Record<string, string>;
  /** Use this dispatcher instead of creating an Agent (tests, proxies). Not closed by close(). */
  dispatcher?: Dispatcher;
}

export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface Transport {
  fetch: FetchFunction;
  retryPolicy: RetryPolicy | undefined;
  dispatcher: Dispatcher;
  /** Closes the Agent's sockets (only when the transport created it). */
  close(): Promise<void>;
}

interface PreparedRequest {
  url: string;
  method: string;
  headers: Headers;
  body: ArrayBuffer | undefined;
  signal: AbortSignal | undefined;
  redirect: RequestInit['redirect'];
}

// Buffer the body once: a stream can be read only once and a retry must resend the same bytes.
async function prepare(input: string | URL | Request, init: RequestInit | undefined): Promise<PreparedRequest> {
  const request = new Request(input, init);
  const body = request.body ? await request.arrayBuffer() : undefined;
  return {
    url: request.url,
    method: request.method,
    headers: new Headers(request.headers),
    body,
    signal: init?.signal ?? (input instanceof Request ? input.signal : undefined) ?? undefined,
    redirect: init?.redirect ?? (input instanceof Request ? input.redirect : undefined),
  };
}

export function createTransport(options: TransportOptions = {}): Transport {
  const ownsDispatcher = options.dispatcher === undefined;
  const dispatcher =
    options.dispatcher ??
    new Agent({
      connect: { timeout: options.connectTimeoutMs ?? 10_000 },
      headersTimeout: options.headersTimeoutMs ?? 30_000,
      bodyTimeout: options.bodyTimeoutMs ?? 60_000,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
      connections: options.connections ?? 16,
    });
  const userAgent = options.userAgent ?? USER_AGENT;
  const retryPolicy = options.retry === false ? undefined : createRetryPolicy(options.retry ?? {});
  const defaultHeaders = Object.entries(options.headers ?? {});

  const fetchFn: FetchFunction = async (input, init) => {
    const req = await prepare(input, init);
    if (!req.headers.has('user-agent')) req.headers.set('user-agent', userAgent);
    for (const [name, value] of defaultHeaders) if (!req.headers.has(name)) req.headers.set(name, value);

    const once = () =>
      fetch(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
        redirect: req.redirect,
        // Node's fetch accepts an undici dispatcher; not in the DOM RequestInit type.
        dispatcher,
      } as RequestInit);

    if (!retryPolicy) return once();
    return retryPolicy.run(once, {
      method: req.method,
      url: req.url,
      signal: req.signal,
      // Cancel the unread body so the keep-alive socket goes back to the pool.
      discard: async (res) => {
        await res.body?.cancel().catch(() => {});
      },
    });
  };

  return {
    fetch: fetchFn,
    retryPolicy,
    dispatcher,
    close: async () => {
      if (ownsDispatcher) await dispatcher.close();
    },
  };
}
