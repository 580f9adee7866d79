// @implements HOOK-021
// Delivery deduplication on X-Service-Delivery (HOOK-021).
//
// Delivery is at-least-once and retries span about 24 hours, so an id is kept for 25 hours by
// default. Memory is bounded by `maxEntries`: past the cap the least recently seen ids go first
// (a duplicate then gets through, which is harmless when the receiver refetches `resourceUri`).

/** Any store that answers "seen before?" and remembers the id in one step (memory, Redis SET NX…). */
export interface DeliveryDeduper {
  /** True when `id` was seen within the window; otherwise remembers it and returns false. */
  checkAndRemember(id: string): boolean | Promise<boolean>;
  /** Forgets an id, so a redelivery is processed again (e.g. after a failed hand-off). */
  forget?(id: string): void | Promise<void>;
}

export interface MemoryDeduperOptions {
  /** How long an id is remembered. Default 25 h (retries span about 24 h). */
  ttlMs?: number;
  /** Most ids kept. Default 100 000 (a few MB). */
  maxEntries?: number;
  /** Epoch milliseconds; injectable for tests. */
  clock?: () => number;
}

export interface MemoryDeduper extends DeliveryDeduper {
  checkAndRemember(id: string): boolean;
  has(id: string): boolean;
  forget(id: string): void;
  readonly size: number;
}

export const DEFAULT_DEDUPE_TTL_MS = 25 * 60 * 60 * 1000;

export function createMemoryDeduper(options: MemoryDeduperOptions = {}): MemoryDeduper {
  const ttlMs = options.ttlMs ?? DEFAULT_DEDUPE_TTL_MS;
  const maxEntries = options.maxEntries ?? 100_000;
  const clock = options.clock ?? Date.now;
  if (!(ttlMs > 0)) throw new RangeError(`ttlMs must be > 0 (received: ${ttlMs})`);
  if (!Number.isInteger(maxEntries) || maxEntries < 1)
    throw new RangeError(`maxEntries must be an integer ≥ 1 (received: ${maxEntries})`);

  // Map keeps insertion order; re-inserting on every sighting makes it LRU order, and with one
  // TTL for all it is also expiry order, so both evictions take from the front.
  const expiries = new Map<string, number>();

  function sweep(now: number): void {
    for (const [id, expiresAt] of expiries) {
      if (expiresAt > now) break;
      expiries.delete(id);
    }
  }

  function has(id: string): boolean {
    const now = clock();
    sweep(now);
    return expiries.has(id);
  }

  function checkAndRemember(id: string): boolean {
    const now = clock();
    sweep(now);
    const seen = expiries.delete(id);
    expiries.set(id, now + ttlMs);
    while (expiries.size > maxEntries) {
      const oldest = expiries.keys().next().value as string;
      expiries.delete(oldest);
    }
    return seen;
  }

  return {
    checkAndRemember,
    has,
    forget: (id) => void expiries.delete(id),
    get size() {
      sweep(clock());
      return expiries.size;
    },
  };
}
