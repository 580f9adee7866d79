import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { backoffDelay, createRetryPolicy, parseRetryAfter, type RetryOptions, type WaitEvent } from './retry.ts';

interface Answer {
  status: number;
  retryAfter?: string;
}

function response(a: Answer) {
  return {
    status: a.status,
    headers: { get: (n: string) => (n.toLowerCase() === 'retry-after' ? (a.retryAfter ?? null) : null) },
  };
}

/** A fake clock that only moves when the policy sleeps, so every wait is visible and instant. */
function harness(options: RetryOptions = {}) {
  let now = 1_700_000_000_000;
  const waits: WaitEvent[] = [];
  const slept: number[] = [];
  const policy = createRetryPolicy({
    clock: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
    onWait: (e) => waits.push(e),
    ...options,
  });
  return { policy, waits, slept, now: () => now };
}

describe('parseRetryAfter', () => {
  it('when given delta-seconds, then returns milliseconds [ERR-006]', () => {
    expect(parseRetryAfter('3', 0)).toBe(3000);
    expect(parseRetryAfter(' 0 ', 0)).toBe(0);
  });
  it('when given an HTTP date, then returns the time until it, never negative', () => {
    const now = Date.parse('2026-11-01T10:00:00Z');
    expect(parseRetryAfter('Sun, 01 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 01 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });
  it('when the value is unusable, then returns null', () => {
    for (const v of [null, undefined, '', '-1', '1.5', 'soon', '2026-11-01T10:00:00Z'])
      expect(parseRetryAfter(v, 0)).toBeNull();
  });
});

describe('createRetryPolicy', () => {
  it('when a 429 carries Retry-After, then waits exactly that long first, and longer while throttling continues [ERR-006]', async () => {
    const answers: Answer[] = [{ status: 429, retryAfter: '2' }, { status: 429, retryAfter: '2' }, { status: 200 }];
    const h = harness({ random: () => 0.999 });
    const res = await h.policy.run(async (n) => response(answers[n - 1]!));
    expect(res.status).toBe(200);
    expect(h.waits.map((w) => [w.attempt, w.reason, w.status])).toEqual([
      [1, 'rate-limited', 429],
      [2, 'rate-limited', 429],
    ]);
    expect(h.slept[0]).toBe(2000);
    expect(h.slept[1]).toBeGreaterThanOrEqual(2000);
  });

  it('when a POST gets 429, then it is repeated (the request was not processed)', async () => {
    const answers: Answer[] = [{ status: 429, retryAfter: '1' }, { status: 201 }];
    const h = harness();
    const res = await h.policy.run(async (n) => response(answers[n - 1]!), { method: 'POST' });
    expect(res.status).toBe(201);
    expect(h.slept).toEqual([1000]);
  });

  it('when a POST gets 503, then it is not repeated', async () => {
    const h = harness();
    let calls = 0;
    const res = await h.policy.run(async () => (calls++, response({ status: 503 })), { method: 'POST' });
    expect([res.status, calls, h.slept.length]).toEqual([503, 1, 0]);
  });

  it.each(['GET', 'HEAD', 'PUT', 'DELETE'])(
    'when %s gets 5xx then network errors, then it is retried until success',
    async (method) => {
      const h = harness();
      let calls = 0;
      const res = await h.policy.run(
        async () => {
          calls++;
          if (calls === 1) return response({ status: 502 });
          if (calls === 2) throw new TypeError('fetch failed');
          return response({ status: 200 });
        },
        { method },
      );
      expect(res.status).toBe(200);
      expect(h.waits.map((w) => w.reason)).toEqual(['server-error', 'network-error']);
    },
  );

  it('when a network error persists past maxAttempts, then the last error is thrown', async () => {
    const h = harness({ maxAttempts: 3 });
    const err = new TypeError('fetch failed');
    await expect(h.policy.run(async () => Promise.reject(err))).rejects.toBe(err);
    expect(h.slept).toHaveLength(2);
  });

  it('when the error is not a network error (e.g. an invalid URL), then it is thrown at once', async () => {
    const h = harness();
    const bug = new TypeError('Failed to parse URL from nope');
    await expect(h.policy.run(async () => Promise.reject(bug))).rejects.toBe(bug);
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    let calls = 0;
    await h.policy.run(async () => (calls++ === 0 ? Promise.reject(reset) : response({ status: 200 })));
    expect(h.waits.map((w) => w.reason)).toEqual(['network-error']);
  });

  it('when the caller aborts, then the abort is not retried', async () => {
    const h = harness();
    const ac = new AbortController();
    ac.abort();
    const abortError = new DOMException('aborted', 'AbortError');
    await expect(h.policy.run(async () => Promise.reject(abortError), { signal: ac.signal })).rejects.toThrow();
    expect(h.slept).toHaveLength(0);
  });

  it('when Retry-After exceeds the cap, then the 429 is returned instead of a shorter wait', async () => {
    const giveUps: string[] = [];
    const h = harness({ maxDelayMs: 5000, onGiveUp: (e) => giveUps.push(e.why) });
    const res = await h.policy.run(async () => response({ status: 429, retryAfter: '6' }));
    expect(res.status).toBe(429);
    expect(h.slept).toEqual([]);
    expect(giveUps).toEqual(['retry-after-above-cap']);
  });

  it('when Retry-After is 0, then it still waits at least the minimum (never a hot loop) [ERR-006]', async () => {
    const answers: Answer[] = [{ status: 429, retryAfter: '0' }, { status: 200 }];
    const h = harness({ minDelayMs: 250 });
    await h.policy.run(async (n) => response(answers[n - 1]!));
    expect(h.slept).toEqual([250]);
  });

  it('when a retried response is dropped, then discard is called for it', async () => {
    const answers: Answer[] = [{ status: 429, retryAfter: '1' }, { status: 200 }];
    const h = harness();
    const discarded: number[] = [];
    await h.policy.run(async (n) => response(answers[n - 1]!), { discard: (r) => void discarded.push(r.status) });
    expect(discarded).toEqual([429]);
  });

  it('properties: waits never below Retry-After, never above the cap, never 0 ms, total within the budget [ERR-006]', async () => {
    const answerArb = fc.oneof(
      fc.record({
        status: fc.constant(429),
        retryAfter: fc.option(fc.integer({ min: 0, max: 90 }).map(String), { nil: undefined }),
      }),
      fc.record({ status: fc.constantFrom(500, 502, 503, 504) }),
      fc.record({ status: fc.constantFrom(200, 204, 404) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(answerArb, { minLength: 1, maxLength: 30 }),
        fc.record({
          maxAttempts: fc.integer({ min: 1, max: 20 }),
          budgetMs: fc.integer({ min: 0, max: 600_000 }),
          baseDelayMs: fc.integer({ min: 1, max: 5000 }),
          maxDelayMs: fc.integer({ min: 1000, max: 120_000 }),
          minDelayMs: fc.integer({ min: 1, max: 1000 }),
        }),
        fc.constantFrom('GET', 'POST', 'PUT'),
        fc.infiniteStream(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })),
        async (answers, opts, method, randoms) => {
          const h = harness({ ...opts, random: () => randoms.next().value });
          const start = h.now();
          let calls = 0;
          const res = await h.policy.run(async () => response(answers[Math.min(calls++, answers.length - 1)]!), {
            method,
          });
          expect(calls).toBeLessThanOrEqual(opts.maxAttempts);
          expect(h.waits).toHaveLength(calls - 1);
          const total = h.slept.reduce((a, b) => a + b, 0);
          expect(total).toBeLessThanOrEqual(opts.budgetMs);
          expect(h.now() - start).toBe(total);
          h.waits.forEach((w, i) => {
            expect(w.delayMs).toBe(h.slept[i]);
            expect(w.delayMs).toBeGreaterThan(0);
            expect(w.delayMs).toBeGreaterThanOrEqual(opts.minDelayMs);
            expect(w.delayMs).toBeLessThanOrEqual(opts.maxDelayMs);
            const given: Answer = answers[Math.min(i, answers.length - 1)]!;
            if (given.retryAfter !== undefined)
              expect(w.delayMs).toBeGreaterThanOrEqual(Number(given.retryAfter) * 1000);
            if (method === 'POST') expect(w.status).toBe(429);
          });
          // The answer handed back is the last one seen.
          expect(res.status).toBe(answers[Math.min(calls - 1, answers.length - 1)]!.status);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: the backoff ceiling grows exponentially and stays within [min, cap]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (n, r) => {
          const o = { baseDelayMs: 500, maxDelayMs: 30_000, minDelayMs: 100 };
          const d = backoffDelay(n, o, r);
          expect(d).toBeGreaterThanOrEqual(100);
          expect(d).toBeLessThanOrEqual(Math.max(100, Math.min(30_000, 500 * 2 ** (n - 1))));
        },
      ),
    );
  });
});
