// Throttle of failed sign-ins and refreshes (DEC-AUTH-016, OWASP API2/API6), beside the
// interface's per-IP limit of the lists: its own GCRA policy and its own keys in the same stores.
//
// Only failures count, without a race: an attempt takes a slot in each of its buckets before the
// credentials are checked and gives the slots back when it succeeds (or fails for another reason,
// such as storage). So a thousand concurrent guesses hold at most the burst between them, and a
// refused attempt costs no password hash at all.

import { createHash } from 'node:crypto';
import { HttpError } from '../http/HttpError.ts';
import { clientKey } from './clientKey.ts';
import type { GcraPolicy } from './gcra.ts';
import type { RateLimitStore } from './store.ts';

/** Failed attempts per minute, sustained, per bucket. */
const AUTH_ATTEMPTS_PER_MINUTE = 10;
/** Failed attempts a bucket at rest admits at once. */
export const AUTH_BURST = 10;
/** One failed attempt per 6 s; ten at once from rest (τ = 9 intervals). */
export const AUTH_POLICY: GcraPolicy = {
  emissionIntervalMs: 60_000 / AUTH_ATTEMPTS_PER_MINUTE,
  toleranceMs: (AUTH_BURST - 1) * (60_000 / AUTH_ATTEMPTS_PER_MINUTE),
};
/** Redis key prefix of the throttle's buckets (the lists use `ratelimit:gcra:`). */
export const AUTH_KEY_PREFIX = 'ratelimit:auth:';

export type AuthOperation = 'signin' | 'refresh';

/** One attempt holding its slots. */
export interface AuthAttempt {
  /** The attempt does not count: give its slots back (a success, or a failure not of the credentials). */
  release(): Promise<void>;
}

export interface AuthThrottle {
  /**
   * Takes a slot in the client IP's bucket of `operation` and, for sign-in, in the user name's.
   * Throws the 429 when one is full (then nothing is taken).
   */
  begin(
    operation: AuthOperation,
    req: { ip?: string | undefined; socket?: { remoteAddress?: string | undefined } },
    username?: string,
  ): Promise<AuthAttempt>;
}

export interface AuthThrottleOptions {
  /** A store built with AUTH_POLICY (and, for Redis, AUTH_KEY_PREFIX). */
  store: RateLimitStore;
  /** Epoch ms for tests; absent, the store's clock decides. */
  now?: () => number;
}

const WHAT: Record<AuthOperation, string> = { signin: 'failed sign-ins', refresh: 'failed refreshes' };

function authThrottleMessage(operation: AuthOperation, retryAfterSeconds: number): string {
  const per = operation === 'signin' ? 'per client IP and per user name' : 'per client IP';
  return `too many ${WHAT[operation]}: at most ${AUTH_BURST} at once, then ${AUTH_ATTEMPTS_PER_MINUTE} per minute, ${per}; retry after ${retryAfterSeconds} s`;
}

export function createAuthThrottle(options: AuthThrottleOptions): AuthThrottle {
  const { store, now } = options;
  return {
    async begin(operation, req, username) {
      const keys = [`${operation}:ip:${clientKey(req)}`];
      // Hashed: user names do not sit in Redis, and every key has one length whatever was sent.
      if (username !== undefined)
        keys.push(`${operation}:user:${createHash('sha256').update(username).digest('base64url')}`);
      const taken: string[] = [];
      const giveBack = async () => {
        await Promise.all(taken.map((key) => store.refund(key, now?.())));
      };
      for (const key of keys) {
        const decision = await store.take(key, now?.());
        if (!decision.allowed) {
          await giveBack();
          throw new HttpError(429, {
            message: authThrottleMessage(operation, decision.retryAfterSeconds),
            headers: { 'Retry-After': String(decision.retryAfterSeconds) },
          });
        }
        taken.push(key);
      }
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          await giveBack();
        },
      };
    },
  };
}

/** The throttle when RATE_LIMIT_ENABLED is false: every attempt passes. */
export const NO_AUTH_THROTTLE: AuthThrottle = {
  begin: async () => ({ release: async () => {} }),
};
