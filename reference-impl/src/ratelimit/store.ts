// What the middleware needs from a limiter store: one atomic "take a slot" per request.

export interface RateLimitDecision {
  readonly allowed: boolean;
  /** 0 when allowed; whole seconds (≥ 1) until a request would pass when refused. */
  readonly retryAfterSeconds: number;
}

export interface RateLimitStore {
  /**
   * Decides one request of `key`. `now` (epoch ms) overrides the store's own clock; the
   * middleware passes it only when a test injects a clock.
   */
  take(key: string, now?: number): Promise<RateLimitDecision>;
  /** Gives back one slot `take` admitted (one emission interval); nothing when `key` is at rest. */
  refund(key: string, now?: number): Promise<void>;
  close?(): Promise<void>;
}
