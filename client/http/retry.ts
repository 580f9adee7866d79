// @implements ERR-006
// Retry policy for every call the client makes (ERR-006).
//
// - 429: wait Retry-After (seconds or HTTP date), and while throttling continues wait
//   max(Retry-After, exponential backoff with full jitter). Any method: a 429 means the request
//   was refused before it was processed, so repeating it is safe even for POST.
// - 5xx and network errors: the same backoff, but only for idempotent methods (GET, HEAD,
//   OPTIONS, PUT, DELETE). PUT is included: DEC-ITEM-001 makes it a full replacement of the
//   item, so a repeat leaves the same state (at worst one extra `lastupdated` bump and webhook).
//   POST is never repeated after a 5xx or a network error: it could create a second item.
// - Never a hot loop: every wait is at least `minDelayMs`; a wait longer than `maxDelayMs` or
//   one that would overrun the time budget is not taken, the last answer is returned instead.
// - Every wait is reported through `onWait` before it starts.

import { setTimeout as wait } from 'node:timers/promises';

export type RetryReason = 'rate-limited' | 'server-error' | 'network-error';

export interface WaitEvent {
  /** Number of the attempt that just failed (1 = the first request). */
  attempt: number;
  delayMs: number;
  reason: RetryReason;
  /** HTTP status of the failed attempt; absent for network errors. */
  status?: number;
  /** Retry-After as milliseconds, when the answer carried a usable one. */
  retryAfterMs?: number;
  method: string;
  url?: string;
}

export interface GiveUpEvent {
  attempt: number;
  reason: RetryReason;
  status?: number;
  /** Why no further attempt was made. */
  why: 'attempts' | 'budget' | 'retry-after-above-cap' | 'not-idempotent';
  method: string;
  url?: string;
}

export interface RetryOptions {
  /** Attempts in total, the first request included. Default 8. */
  maxAttempts?: number;
  /** Time budget from the first request to the start of the last one. Default 120 s. */
  budgetMs?: number;
  /** First backoff ceiling; doubles on every further retry. Default 500 ms. */
  baseDelayMs?: number;
  /** Cap of one wait. Default 30 s. */
  maxDelayMs?: number;
  /** Floor of one wait, so a `Retry-After: 0` or a tiny jitter never hot-loops. Default 100 ms. */
  minDelayMs?: number;
  /** Methods retried after 5xx and network errors. Default GET, HEAD, OPTIONS, PUT, DELETE. */
  idempotentMethods?: readonly string[];
  onWait?: (event: WaitEvent) => void;
  onGiveUp?: (event: GiveUpEvent) => void;
  /** Milliseconds since the epoch; injectable for tests. */
  clock?: () => number;
  /** Injectable for tests; must reject when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Uniform in [0, 1); injectable for tests. */
  random?: () => number;
}

/** What the policy needs to see of an answer (a Fetch Response fits). */
export interface RetryableResponse {
  status: number;
  headers: { get(name: string): string | null };
}

export interface RunOptions<R> {
  method?: string;
  url?: string;
  signal?: AbortSignal;
  /** Frees a response that will be retried (for fetch: cancel its body so the socket is reused). */
  discard?: (response: R) => Promise<void> | void;
}

export interface RetryPolicy {
  readonly options: Readonly<ResolvedRetryOptions>;
  run<R extends RetryableResponse>(attemptFn: (attempt: number) => Promise<R>, options?: RunOptions<R>): Promise<R>;
}

export type ResolvedRetryOptions = Required<Omit<RetryOptions, 'onWait' | 'onGiveUp'>> &
  Pick<RetryOptions, 'onWait' | 'onGiveUp'>;

export const DEFAULT_IDEMPOTENT_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'] as const;

export async function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  await wait(ms, undefined, { signal });
}

export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  const resolved: ResolvedRetryOptions = {
    maxAttempts: options.maxAttempts ?? 8,
    budgetMs: options.budgetMs ?? 120_000,
    baseDelayMs: options.baseDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 30_000,
    minDelayMs: options.minDelayMs ?? 100,
    idempotentMethods: (options.idempotentMethods ?? DEFAULT_IDEMPOTENT_METHODS).map((m) => m.toUpperCase()),
    clock: options.clock ?? Date.now,
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
    onWait: options.onWait,
    onGiveUp: options.onGiveUp,
  };
  if (!Number.isInteger(resolved.maxAttempts) || resolved.maxAttempts < 1) {
    throw new RangeError(`maxAttempts must be an integer ≥ 1 (received: ${resolved.maxAttempts})`);
  }
  if (!(resolved.minDelayMs >= 1)) throw new RangeError(`minDelayMs must be ≥ 1 ms (received: ${resolved.minDelayMs})`);
  if (!(resolved.maxDelayMs >= resolved.minDelayMs)) {
    throw new RangeError(`maxDelayMs (${resolved.maxDelayMs}) must be ≥ minDelayMs (${resolved.minDelayMs})`);
  }
  if (!(resolved.baseDelayMs > 0)) throw new RangeError(`baseDelayMs must be > 0 (received: ${resolved.baseDelayMs})`);
  if (!(resolved.budgetMs >= 0)) throw new RangeError(`budgetMs must be ≥ 0 (received: ${resolved.budgetMs})`);
  return resolved;
}

/**
 * Retry-After as milliseconds: delta-seconds (`120`) or an HTTP date. Null when absent or
 * unusable; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value == null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return Number.isSafeInteger(seconds) ? seconds * 1000 : null;
  }
  // HTTP dates always name the weekday and GMT; rejecting other shapes avoids Date.parse's leniency.
  if (!/^[A-Za-z]{3},? .+ GMT$/.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

/** Full jitter (AWS architecture blog): uniform in [0, min(cap, base·2^(n-1))], then the floor. */
export function backoffDelay(
  retryNumber: number,
  o: Pick<ResolvedRetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'minDelayMs'>,
  random: number,
): number {
  const ceiling = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** Math.min(retryNumber - 1, 52));
  return Math.max(o.minDelayMs, Math.floor(random * ceiling));
}

/**
 * Errors worth another attempt: fetch's "fetch failed" and errors carrying a socket or undici
 * code (ECONNRESET, ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, …), anywhere in the cause chain.
 * Not the caller's abort, and not programming errors such as an invalid URL.
 */
export function isNetworkError(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return false;
  for (
    let e = error as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (e.name === 'AbortError') return false;
    if (e.message === 'fetch failed') return true;
    if (typeof e.code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(e.code)) return true;
  }
  return false;
}

export function createRetryPolicy(options: RetryOptions = {}): RetryPolicy {
  const o = resolveRetryOptions(options);

  async function run<R extends RetryableResponse>(
    attemptFn: (attempt: number) => Promise<R>,
    runOptions: RunOptions<R> = {},
  ): Promise<R> {
    const method = (runOptions.method ?? 'GET').toUpperCase();
    const { url, signal } = runOptions;
    const idempotent = o.idempotentMethods.includes(method);
    const deadline = o.clock() + o.budgetMs;
    let throttledRetries = 0;
    let failedRetries = 0;

    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      let response: R | undefined;
      let error: unknown;
      try {
        response = await attemptFn(attempt);
      } catch (e) {
        error = e;
      }

      let reason: RetryReason;
      let status: number | undefined;
      let retryAfterMs: number | null = null;
      if (response === undefined) {
        if (!isNetworkError(error, signal)) throw error;
        reason = 'network-error';
      } else if (response.status === 429) {
        reason = 'rate-limited';
        status = 429;
        retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), o.clock());
      } else if (response.status >= 500 && response.status <= 599) {
        reason = 'server-error';
        status = response.status;
        // 503 may carry Retry-After too; honour it the same way.
        retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), o.clock());
      } else {
        return response;
      }

      const giveUp = (why: GiveUpEvent['why']): R => {
        o.onGiveUp?.({ attempt, reason, status, why, method, url });
        if (response === undefined) throw error;
        return response;
      };
      if (reason !== 'rate-limited' && !idempotent) return giveUp('not-idempotent');
      if (attempt >= o.maxAttempts) return giveUp('attempts');

      let delayMs: number;
      if (reason === 'rate-limited') {
        throttledRetries++;
        // First 429: exactly the given wait; while throttling continues, at least that much.
        const jitter =
          throttledRetries === 1 && retryAfterMs !== null ? 0 : backoffDelay(throttledRetries, o, o.random());
        delayMs = Math.max(o.minDelayMs, retryAfterMs ?? 0, jitter);
      } else {
        failedRetries++;
        delayMs = Math.max(retryAfterMs ?? 0, backoffDelay(failedRetries, o, o.random()));
      }
      if (retryAfterMs !== null && retryAfterMs > o.maxDelayMs) return giveUp('retry-after-above-cap');
      delayMs = Math.min(delayMs, o.maxDelayMs);
      if (o.clock() + delayMs > deadline) return giveUp('budget');

      if (response !== undefined) await runOptions.discard?.(response);
      o.onWait?.({ attempt, delayMs, reason, status, retryAfterMs: retryAfterMs ?? undefined, method, url });
      await o.sleep(delayMs, signal);
    }
  }

  return { options: o, run };
}
