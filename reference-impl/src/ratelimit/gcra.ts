// GCRA ("leaky bucket as a meter", DEC-RATE-001): the whole state of a client is one
// theoretical arrival time (TAT). Pure and clock-free: the caller passes `now`, so the same
// function serves the memory store, the Redis fallback and the unit tests.

import { RATE_LIMIT } from '../../../generated/constants.ts';

export interface GcraPolicy {
  /** T: one request per this many ms is the sustained rate. */
  readonly emissionIntervalMs: number;
  /** τ: how far the TAT may run ahead of now; τ = 40·T admits 41 at once (nginx burst=40). */
  readonly toleranceMs: number;
}

// @implements RATE-002, RATE-003
/** The interface's rate and burst (from the spec), in nginx `limit_req ... burst nodelay` sense. */
export const RATE_PER_SECOND = RATE_LIMIT.perSecond;
export const BURST = RATE_LIMIT.burst;
export const DEFAULT_POLICY: GcraPolicy = {
  emissionIntervalMs: 1000 / RATE_PER_SECOND,
  toleranceMs: BURST * (1000 / RATE_PER_SECOND),
};

export interface GcraDecision {
  readonly allowed: boolean;
  /** 0 when allowed; else whole seconds until a request would pass, rounded up, at least 1. */
  readonly retryAfterSeconds: number;
  /** The TAT to store. Unchanged on refusal: refused requests cost nothing. */
  readonly newTat: number;
}

/**
 * Decides one request at integer millisecond `now`. `tat` is the stored TAT, or undefined
 * for a client at rest (a TAT in the past is equivalent to no TAT).
 */
export function gcra(now: number, tat: number | undefined, policy: GcraPolicy = DEFAULT_POLICY): GcraDecision {
  const effective = tat === undefined || tat < now ? now : tat;
  const waitMs = effective - policy.toleranceMs - now;
  if (waitMs > 0) {
    return { allowed: false, retryAfterSeconds: retryAfterSeconds(waitMs), newTat: tat ?? now };
  }
  return { allowed: true, retryAfterSeconds: 0, newTat: effective + policy.emissionIntervalMs };
}

/** DEC-RATE-002: whole seconds, rounded up, never below 1. Shared with the Redis script's answer. */
export function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}

/**
 * Gives back the slot of one admitted request: the TAT to store, or undefined when the client is
 * then at rest. For limits that count only some outcomes (DEC-AUTH-016: a sign-in attempt holds a
 * slot while it is checked and returns it when it succeeds), so that concurrent requests cannot
 * all pass a check made before any of them is counted.
 */
export function gcraRefund(
  now: number,
  tat: number | undefined,
  policy: GcraPolicy = DEFAULT_POLICY,
): number | undefined {
  if (tat === undefined) return undefined;
  const refunded = tat - policy.emissionIntervalMs;
  return refunded > now ? refunded : undefined;
}
