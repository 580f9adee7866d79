// Per-process GCRA store: a Map of key → TAT. Used when REDIS_URL is absent and as the
// Redis store's fallback. Memory stays bounded: a TAT in the past equals an absent key, so a
// sweep drops those; every key expires at most τ + T (2.05 s) after its last request.

import { DEFAULT_POLICY, gcra, gcraRefund, type GcraPolicy } from './gcra.ts';
import type { RateLimitDecision, RateLimitStore } from './store.ts';

export interface MemoryStoreOptions {
  /** Epoch ms; injectable for tests. */
  now?: () => number;
  policy?: GcraPolicy;
  /** A sweep runs inside `take` at most this often (no timer to clear on shutdown). */
  sweepEveryMs?: number;
}

export interface MemoryStore extends RateLimitStore {
  /** Number of keys held; for tests and metrics. */
  readonly size: number;
  /** Drops every key whose TAT is not after `now`. */
  sweep(now?: number): void;
}

export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const clock = options.now ?? Date.now;
  const policy = options.policy ?? DEFAULT_POLICY;
  const sweepEveryMs = options.sweepEveryMs ?? 1000;
  const tats = new Map<string, number>();
  let lastSweep = -Infinity;

  function sweep(now = clock()): void {
    lastSweep = now;
    for (const [key, tat] of tats) if (tat <= now) tats.delete(key);
  }

  function takeSync(key: string, now: number): RateLimitDecision {
    if (now - lastSweep >= sweepEveryMs) sweep(now);
    const decision = gcra(now, tats.get(key), policy);
    if (decision.allowed) tats.set(key, decision.newTat);
    return { allowed: decision.allowed, retryAfterSeconds: decision.retryAfterSeconds };
  }

  function refundSync(key: string, now: number): void {
    const tat = gcraRefund(now, tats.get(key), policy);
    if (tat === undefined) tats.delete(key);
    else tats.set(key, tat);
  }

  return {
    get size() {
      return tats.size;
    },
    sweep,
    take: async (key, now) => takeSync(key, Math.floor(now ?? clock())),
    refund: async (key, now) => refundSync(key, Math.floor(now ?? clock())),
  };
}
