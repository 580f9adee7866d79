import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_POLICY, gcra, gcraRefund, retryAfterSeconds, type GcraPolicy } from './gcra.ts';

/** Feeds request times (ms) to one client's GCRA; returns each decision. */
function run(times: readonly number[], start?: number, policy: GcraPolicy = DEFAULT_POLICY) {
  let tat = start;
  return times.map((now) => {
    const d = gcra(now, tat, policy);
    tat = d.newTat;
    return { now, ...d, tat };
  });
}
const allowedCount = (ds: { allowed: boolean }[]) => ds.filter((d) => d.allowed).length;
const range = (from: number, to: number, step = 1) =>
  Array.from({ length: Math.ceil((to - from) / step) }, (_, i) => from + i * step);
const times = (n: number, t: number) => Array.from({ length: n }, () => t);

// The expected numbers are the nginx column (burst=40, τ = 2000 ms) of the table in
// shared/notes/webhooks-ratelimit-security.md §2.5.
describe('gcra (DEC-RATE-001)', () => {
  it('when 100 requests arrive at one instant from rest, then 41 pass and the first refusal says Retry-After 1 [RATE-003] [RATE-004]', () => {
    const ds = run(times(100, 0));
    expect(allowedCount(ds)).toBe(41);
    expect(ds.slice(0, 41).every((d) => d.allowed)).toBe(true);
    expect(ds[41]).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
  });

  it('when the burst is spent, then a request 49 ms later is refused and one 50 ms later passes [RATE-002]', () => {
    const burst = run(times(41, 0));
    const tat = burst.at(-1)!.tat;
    expect(gcra(49, tat).allowed).toBe(false);
    expect(gcra(50, tat).allowed).toBe(true);
  });

  it('when the burst is spent and a client sends one request per ms for the next 1000 ms, then 20 pass [RATE-002]', () => {
    const tat = run(times(41, 0)).at(-1)!.tat;
    expect(allowedCount(run(range(1, 1001), tat))).toBe(20);
  });

  it('when a flood of one request per ms starts from rest, then 60 pass in the first second [RATE-002] [RATE-003]', () => {
    expect(allowedCount(run(range(0, 1000)))).toBe(60);
  });

  it('when a client sends 100 requests per second for 10 s, then 240 pass [RATE-002]', () => {
    expect(allowedCount(run(range(0, 10_000, 10)))).toBe(240);
  });

  it('when a client sends exactly 20 requests per second for 60 s, then none is refused [RATE-002]', () => {
    const ds = run(range(0, 60_000, 50));
    expect(ds).toHaveLength(1200);
    expect(allowedCount(ds)).toBe(1200);
  });

  it('when a client is idle for 3 s after a burst, then a full burst of 41 passes again [RATE-003]', () => {
    const tat = run(times(100, 0)).at(-1)!.tat;
    expect(allowedCount(run(times(100, 3000), tat))).toBe(41);
  });

  it('when a request is refused, then the state does not change (refusals cost nothing)', () => {
    const tat = run(times(41, 0)).at(-1)!.tat;
    const refused = gcra(10, tat);
    expect(refused.allowed).toBe(false);
    expect(refused.newTat).toBe(tat);
  });

  it('when a stored TAT lies in the past, then the client counts as at rest', () => {
    expect(gcra(10_000, 5).newTat).toBe(10_050);
    expect(allowedCount(run(times(100, 10_000), 5))).toBe(41);
  });

  it('when the wait is fractional or long, then Retry-After is its ceiling in seconds, at least 1 [RATE-004]', () => {
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(1000)).toBe(1);
    expect(retryAfterSeconds(1001)).toBe(2);
    const slow: GcraPolicy = { emissionIntervalMs: 3000, toleranceMs: 0 };
    const [first, second] = run([0, 1], undefined, slow);
    expect(first!.allowed).toBe(true);
    expect(second).toMatchObject({ allowed: false, retryAfterSeconds: 3 });
  });

  it('for any arrival pattern, then no window of L ms admits more than floor((L + τ) / T) + 1 requests', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 120 }), { minLength: 1, maxLength: 400 }), (gaps) => {
        let t = 0;
        const arrivals = gaps.map((g) => (t += g));
        const passed = run(arrivals)
          .filter((d) => d.allowed)
          .map((d) => d.now);
        for (let i = 0; i < passed.length; i++) {
          for (let j = i; j < passed.length; j++) {
            const bound =
              Math.floor((passed[j]! - passed[i]! + DEFAULT_POLICY.toleranceMs) / DEFAULT_POLICY.emissionIntervalMs) +
              1;
            if (j - i + 1 > bound) return false;
          }
        }
        return true;
      }),
    );
  });

  it('for any pacing at or below 20 per second, then nothing is ever refused [RATE-002]', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 50, max: 5000 }), { maxLength: 300 }), (gaps) => {
        let t = 0;
        return run(gaps.map((g) => (t += g))).every((d) => d.allowed);
      }),
    );
  });
});

describe('gcraRefund (DEC-AUTH-016)', () => {
  const T = DEFAULT_POLICY.emissionIntervalMs;

  it('when the only admitted request of a client at rest gives its slot back, then the client is at rest again', () => {
    const taken = gcra(1000, undefined);
    expect(gcraRefund(1000, taken.newTat)).toBeUndefined();
    expect(gcraRefund(1000, undefined)).toBeUndefined();
  });

  it('when a full bucket gets one slot back, then exactly one more request passes at that instant', () => {
    const decisions = run(times(41, 0));
    const full = decisions.at(-1)!.tat;
    expect(gcra(0, full).allowed).toBe(false);
    const refunded = gcraRefund(0, full);
    expect(refunded).toBe(full - T);
    const next = gcra(0, refunded);
    expect(next.allowed).toBe(true);
    expect(gcra(0, next.newTat).allowed).toBe(false);
  });

  it('for any arrivals where each admitted request is given back, then nothing is ever refused', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 300 }), (gaps) => {
        let t = 0;
        let tat: number | undefined;
        for (const gap of gaps) {
          t += gap;
          const d = gcra(t, tat);
          if (!d.allowed) return false;
          tat = gcraRefund(t, d.newTat);
        }
        return true;
      }),
    );
  });
});
