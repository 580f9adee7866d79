// @implements HOOK-020
// One webhook delivery attempt (HOOK-010..013, HOOK-018, HOOK-020, DEC-HOOK-006, DEC-HOOK-008):
// POST the stored body bytes unchanged, signed afresh with the current timestamp, through the
// SSRF-guarded dispatcher, and classify what happened. No retries and no state here: the
// delivery worker records the outcome and asks retrySchedule.ts when to try again.

import { performance } from 'node:perf_hooks';
import { request, type Dispatcher } from 'undici';
import { signPayload } from './sign.ts';
import { BlockedAddressError } from './ssrfGuard.ts';

export const WEBHOOK_USER_AGENT = 'ContentService-Webhooks/1';
export const DEFAULT_HEADERS_TIMEOUT_MS = 5000;
/** The receiver's answer body is read only to free the connection; never stored or shown. */
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

export type AttemptClass = 'delivered' | 'transient' | 'permanent';

export interface AttemptOutcome {
  outcome: AttemptClass;
  /** The receiver's status, or null when no response headers arrived. */
  status: number | null;
  /** From the start of the attempt to the response headers (or the failure). */
  latencyMs: number;
  /** Why it was not delivered; null when delivered. Never contains the receiver's body. */
  error: string | null;
  /** The X-Service-Timestamp sent (epoch seconds). */
  timestamp: number;
}

export interface SendAttemptInput {
  url: string;
  /** The delivery's stored bytes: identical on every attempt (DEC-HOOK-008). */
  body: Uint8Array;
  secret: string;
  // @implements HOOK-012
  /** X-Service-Delivery: the same UUID on every attempt of one delivery (HOOK-012). */
  deliveryId: string;
  /** The guarded Agent from createGuardedAgent(). */
  dispatcher: Dispatcher;
  /** Epoch ms; injectable for tests. */
  now?: () => number;
  /** Budget from the start to the response headers, connect and TLS included. */
  headersTimeoutMs?: number;
  maxResponseBytes?: number;
}

/** DEC-HOOK-006: 2xx delivered; 5xx transient; 1xx, 3xx (never followed) and 4xx permanent. */
function classifyStatus(status: number): AttemptClass {
  if (status >= 200 && status <= 299) return 'delivered';
  if (status >= 500 && status <= 599) return 'transient';
  return 'permanent';
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as NodeJS.ErrnoException).code;
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${code && !err.message.includes(code) ? `${code}: ` : ''}${err.message}${cause}`;
}

/** Connection, TLS and DNS errors are transient; a blocked target or an unusable URL is permanent. */
function classifyError(err: unknown): { outcome: AttemptClass; error: string } {
  if (
    err instanceof BlockedAddressError ||
    (err as { code?: unknown } | null)?.code === 'ERR_WEBHOOK_BLOCKED_ADDRESS'
  ) {
    return { outcome: 'permanent', error: (err as Error).message };
  }
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ERR_INVALID_URL' || code === 'UND_ERR_INVALID_ARG')
    return { outcome: 'permanent', error: `invalid callback URL: ${describeError(err)}` };
  return { outcome: 'transient', error: describeError(err) };
}

function statusError(status: number): string | null {
  if (status >= 200 && status <= 299) return null;
  if (status >= 300 && status <= 399) return `HTTP ${status}: redirects are not followed`;
  return `HTTP ${status}`;
}

export async function sendAttempt(input: SendAttemptInput): Promise<AttemptOutcome> {
  const budget = input.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const timestamp = Math.floor((input.now ?? Date.now)() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'x-service-timestamp': String(timestamp),
    'x-service-signature': signPayload(input.secret, timestamp, input.body),
    'x-service-delivery': input.deliveryId,
  };

  // One budget for DNS + connect + TLS + headers; undici's own timers cover only parts of it.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), budget);
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const timeoutText = `no response headers within ${budget} ms`;

  let response: Dispatcher.ResponseData;
  try {
    response = await request(input.url, {
      method: 'POST',
      headers,
      body: input.body,
      dispatcher: input.dispatcher,
      signal: controller.signal,
      headersTimeout: budget,
      bodyTimeout: budget,
    });
  } catch (err) {
    const latencyMs = latency();
    const timedOut = controller.signal.aborted || (err as { code?: unknown }).code === 'UND_ERR_HEADERS_TIMEOUT';
    const { outcome, error } = timedOut ? { outcome: 'transient' as const, error: timeoutText } : classifyError(err);
    return { outcome, status: null, latencyMs, error, timestamp };
  } finally {
    clearTimeout(timer);
  }

  const latencyMs = latency();
  const status = response.statusCode;
  // The status decided the outcome; the body only has to be drained (capped, time-boxed) so
  // the connection can be reused. A receiver that resets mid-body has still answered.
  await response.body
    .dump({ limit: input.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, signal: AbortSignal.timeout(budget) })
    .catch(() => {});
  return { outcome: classifyStatus(status), status, latencyMs, error: statusError(status), timestamp };
}
