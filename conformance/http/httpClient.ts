// The suite's HTTP client (undici). Every exchange is recorded (redacted) as evidence, and every
// response is checked against the spec: a non-conforming response fails the check that made
// the request; one that differs only from our decisions is handed to `onDeviation`. A 429 is
// waited out as Retry-After says (capped, with backoff, a bounded number of times), never
// retried in a tight loop.

import { Agent, request } from 'undici';
import { parseJson } from '../../spec/json.ts';
import { CheckFailure } from '../model/failure.ts';
import type { DecisionDeviation, ResponseValidator } from '../spec/responseValidator.ts';
import type { Exchange, SpecProblem } from '../model/exchange.ts';
import { excerpt } from '../model/exchange.ts';
import type { Redactor } from './redact.ts';
import { waitAfter429 } from './retryAfter.ts';

export type TokenName = 'consumer' | 'full' | 'admin';
export type TokenChoice = TokenName | 'none' | { bearer: string };

export const TOKEN_ENV: Record<TokenName, string> = {
  consumer: 'CONFORMANCE_TOKEN',
  full: 'CONFORMANCE_FULL_TOKEN',
  admin: 'CONFORMANCE_ADMIN_TOKEN',
};

export type QueryValue = string | number | boolean | undefined | readonly (string | number)[];

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** A JSON body (serialised with JSON.stringify). */
  json?: unknown;
  /** A raw body, sent as is (use for malformed JSON or other media types). */
  body?: string | Buffer;
  /** Which token to send. Default: the consumer token. */
  token?: TokenChoice;
  /** `wait` (default): wait out a 429 and retry a few times. `return`: hand the 429 to the caller. */
  on429?: 'wait' | 'return';
  /**
   * Check the response against the spec. `true` (default): a problem fails the check at once,
   * on all its requirements. `'defer'`: problems are kept on the response; the check asserts
   * its own expectation first and then calls `res.assertConforms([ids])` to attribute them.
   * A deferred problem never asserted still fails the check when it ends. `false`: only for
   * the suite's own housekeeping (cleanup).
   */
  validate?: boolean | 'defer';
  timeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  bytes: Buffer;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
  /** The server's Date header, when present and valid. */
  date: Date | undefined;
  url: string;
  exchange: Exchange;
  /** Spec problems of this response (always empty unless validate was 'defer'). */
  problems: SpecProblem[];
  /** Throws a spec CheckFailure about `requirements` (default: all of the check's) if the response does not conform. */
  assertConforms(requirements?: readonly string[]): void;
}

export interface HttpClient {
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResponse>;
  get(path: string, options?: RequestOptions): Promise<HttpResponse>;
  post(path: string, options?: RequestOptions): Promise<HttpResponse>;
  put(path: string, options?: RequestOptions): Promise<HttpResponse>;
  delete(path: string, options?: RequestOptions): Promise<HttpResponse>;
  /** The URL a path resolves to. */
  url(path: string, query?: Record<string, QueryValue>): string;
  /** Exchanges with deferred spec problems that no check asserted. */
  unacknowledged(): Exchange[];
  close(): Promise<void>;
}

export interface HttpClientOptions {
  baseUrl: string;
  tokens: Partial<Record<TokenName, string>>;
  redactor: Redactor;
  /** Receives every exchange as it completes. */
  record: (exchange: Exchange) => void;
  validator?: ResponseValidator;
  timeoutMs?: number;
  /** Longest single wait after a 429. */
  retryAfterCapMs?: number;
  /** How many times a 429 is waited out before it is handed to the caller. */
  max429Retries?: number;
  excerptChars?: number;
  userAgent?: string;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Receives each response that conforms to the interface but differs from our decisions (validator.deviation). */
  onDeviation?: (deviation: DecisionDeviation, exchange: Exchange) => void;
  /** Sees every response unredacted, before the check does (e.g. to watch for secrets shown again). */
  onResponse?: (response: HttpResponse) => void;
}

const sleepReal = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function parseJsonBody(text: string, contentType: string | undefined): unknown {
  if (!text || !/json/i.test(contentType ?? '')) return undefined;
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const base = new URL(options.baseUrl);
  const baseHref = base.href.replace(/\/$/, '');
  const basePath = base.pathname.replace(/\/$/, '');
  const agent = new Agent({ keepAliveTimeout: 4_000, connect: { timeout: options.timeoutMs ?? 15_000 } });
  const sleep = options.sleep ?? sleepReal;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const deferred = new Set<Exchange>();
  let seq = 0;

  for (const name of Object.keys(TOKEN_ENV) as TokenName[]) {
    options.redactor.addSecret(options.tokens[name], `$${TOKEN_ENV[name]}`);
  }

  function url(path: string, query?: Record<string, QueryValue>): string {
    const absolute = /^https?:\/\//i.test(path) ? path : `${baseHref}${path.startsWith('/') ? '' : '/'}${path}`;
    return absolute + buildQuery(query);
  }

  /** The request path relative to the base URL, for matching against the spec's templates. */
  function specPath(target: URL): string {
    const same = target.origin === base.origin && (basePath === '' || target.pathname.startsWith(`${basePath}/`));
    return same ? target.pathname.slice(basePath.length) : target.pathname;
  }

  function authorization(token: TokenChoice | undefined): string | undefined {
    const choice = token ?? 'consumer';
    if (choice === 'none') return undefined;
    if (typeof choice === 'object') {
      options.redactor.addSecret(choice.bearer, '<redacted token>');
      return `Bearer ${choice.bearer}`;
    }
    const value = options.tokens[choice];
    if (!value)
      throw new Error(
        `this check sends the ${choice} token, but none is configured; declare needs: ['${choice}'] so the runner skips it`,
      );
    return `Bearer ${value}`;
  }

  function recorded(msg: { headers: Record<string, string>; text: string; bytes: number }) {
    const { body, truncated } = excerpt(options.redactor.text(msg.text), options.excerptChars);
    return { headers: options.redactor.headers(msg.headers), body, bodyBytes: msg.bytes, truncated };
  }

  async function once(method: string, target: string, opts: RequestOptions): Promise<HttpResponse> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': options.userAgent ?? 'content-conformance',
      ...opts.headers,
    };
    const auth = authorization(opts.token);
    if (auth && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) headers.authorization = auth;
    let payload: string | Buffer | undefined = opts.body;
    if (opts.json !== undefined) {
      payload = JSON.stringify(opts.json);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
        headers['content-type'] = 'application/json';
    }
    const requestText = payload === undefined ? '' : payload.toString();
    const started = now();
    const exchange: Exchange = {
      seq: ++seq,
      startedAt: new Date(started).toISOString(),
      durationMs: 0,
      request: {
        method,
        url: options.redactor.text(target),
        ...recorded({ headers, text: requestText, bytes: Buffer.byteLength(payload ?? '') }),
      },
    };
    const limit = opts.timeoutMs ?? timeoutMs;
    try {
      const res = await request(target, {
        method: method as 'GET',
        headers,
        body: payload,
        dispatcher: agent,
        headersTimeout: limit,
        bodyTimeout: limit,
        signal: AbortSignal.timeout(limit),
      });
      const bytes = Buffer.from(await res.body.arrayBuffer());
      const resHeaders = flattenHeaders(res.headers as Record<string, string | string[] | undefined>);
      const text = bytes.toString('utf8');
      exchange.durationMs = now() - started;
      exchange.response = { status: res.statusCode, ...recorded({ headers: resHeaders, text, bytes: bytes.length }) };
      const dateHeader = resHeaders.date ? new Date(resHeaders.date) : undefined;
      const response: HttpResponse = {
        status: res.statusCode,
        headers: resHeaders,
        bytes,
        text,
        body: parseJsonBody(text, resHeaders['content-type']),
        date: dateHeader && !Number.isNaN(dateHeader.getTime()) ? dateHeader : undefined,
        url: target,
        exchange,
        problems: [],
        assertConforms(requirements) {
          deferred.delete(exchange);
          const failure = specFailure(method, response, response.problems, requirements);
          if (failure) throw failure;
        },
      };
      return response;
    } catch (error) {
      exchange.durationMs = now() - started;
      const err = error as Error & { code?: string };
      const timedOut =
        err.name === 'TimeoutError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT';
      exchange.error = timedOut ? `no complete response within ${limit} ms` : `${err.code ?? err.name}: ${err.message}`;
      options.record(exchange);
      throw new CheckFailure({
        kind: 'error',
        message: `${method} ${options.redactor.text(target)} failed: ${exchange.error}`,
        received: exchange.error,
        expected: 'an HTTP response',
        exchanges: [exchange],
      });
    }
  }

  function specFailure(
    method: string,
    res: HttpResponse,
    problems: readonly SpecProblem[],
    requirements?: readonly string[],
  ): CheckFailure | undefined {
    const first = problems[0];
    if (!first) return undefined;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    return new CheckFailure({
      kind: 'spec',
      message: `${method} ${new URL(res.url).pathname} → ${res.status} does not conform to the spec: ${first.message}${more}`,
      received: first.received,
      expected: first.expected,
      pointer: first.pointer,
      requirements,
      exchanges: [res.exchange],
    });
  }

  function check(method: string, res: HttpResponse, validate: boolean | 'defer'): void {
    options.onResponse?.(res);
    if (validate !== false && options.validator) {
      const response = {
        method,
        path: specPath(new URL(res.url)),
        status: res.status,
        headers: res.headers,
        body: res.bytes,
      };
      res.problems = options.validator.validate(response);
      if (res.problems.length > 0) res.exchange.problems = res.problems;
      else {
        const deviation = options.validator.deviation?.(response);
        if (deviation) options.onDeviation?.(deviation, res.exchange);
      }
    }
    options.record(res.exchange);
    if (validate === 'defer') {
      if (res.problems.length > 0) deferred.add(res.exchange);
      return;
    }
    const failure = specFailure(method, res, res.problems);
    if (failure) throw failure;
  }

  async function send(method: string, path: string, opts: RequestOptions = {}): Promise<HttpResponse> {
    const target = url(path, opts.query);
    const validate = opts.validate ?? true;
    const maxRetries = options.max429Retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const res = await once(method, target, opts);
      check(method, res, validate);
      if (res.status !== 429 || opts.on429 === 'return' || attempt >= maxRetries) return res;
      const wait = waitAfter429(res.headers['retry-after'], attempt, now(), {
        capMs: options.retryAfterCapMs ?? 10_000,
      });
      res.exchange.note = `429: waited ${wait} ms before retrying`;
      await sleep(wait);
    }
  }

  return {
    request: send,
    get: (path, opts) => send('GET', path, opts),
    post: (path, opts) => send('POST', path, opts),
    put: (path, opts) => send('PUT', path, opts),
    delete: (path, opts) => send('DELETE', path, opts),
    url,
    unacknowledged: () => [...deferred],
    // destroy, not close: a timed-out check may still have requests in flight.
    close: () => agent.destroy(),
  };
}
