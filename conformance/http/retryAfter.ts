// How long to wait after a 429: the server's Retry-After (seconds or an HTTP date), capped;
// without one, exponential backoff with full jitter. Never less than a floor, so that nothing
// hot-loops on a target that answers `Retry-After: 0`. The header is read by the client library's
// parser, so the suite and the client understand a target's Retry-After alike.

import { parseRetryAfter } from '../../client/index.ts';

export const MIN_WAIT_MS = 500;

export interface WaitPolicy {
  capMs: number;
  baseMs?: number;
  random?: () => number;
}

/** The wait before retry number `attempt` (0-based) after a 429. */
export function waitAfter429(
  retryAfter: string | undefined,
  attempt: number,
  nowMs: number,
  policy: WaitPolicy,
): number {
  const told = parseRetryAfter(retryAfter, nowMs);
  const base = policy.baseMs ?? 1000;
  const random = policy.random ?? Math.random;
  // Later attempts back off further even when the server keeps saying the same Retry-After.
  const backoff = Math.round(random() * base * 2 ** attempt);
  const wait = told !== null ? told + (attempt > 0 ? backoff : 0) : base + backoff;
  return Math.min(policy.capMs, Math.max(MIN_WAIT_MS, wait));
}
