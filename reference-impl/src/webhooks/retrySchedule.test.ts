import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadConfig } from '../config.ts';
import {
  DEFAULT_RETRY_SCHEDULE,
  describeSchedule,
  formatDuration,
  nextAttemptAt,
  scheduleFromConfig,
  type RetrySchedule,
} from './retrySchedule.ts';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);

/** Attempt times of one delivery that always fails transiently; `took(i)` = duration of attempt i. */
function attemptTimes(schedule: RetrySchedule, random: () => number, took: (i: number) => number = () => 0): number[] {
  const times = [T0];
  for (let i = 0; i < 100; i++) {
    const next = nextAttemptAt({
      firstAttemptAt: T0,
      attemptsMade: times.length,
      now: times.at(-1)! + took(i),
      schedule,
      random,
    });
    if (next === null) return times;
    times.push(next);
  }
  throw new Error('schedule never ends');
}

describe('retry schedule (DEC-HOOK-005)', () => {
  it('when WEBHOOK_RETRY_SCHEDULE is not set, then the service runs the default schedule: 5 s … 10 h, then a final attempt at 24 h', () => {
    expect(DEFAULT_RETRY_SCHEDULE).toEqual({
      delaysMs: [5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H],
      finalAttemptAtMs: 24 * H,
      jitter: 0.1,
    });
    expect(scheduleFromConfig(loadConfig({}).webhookRetryScheduleMs)).toEqual(DEFAULT_RETRY_SCHEDULE);
  });

  it('when the configured schedule is converted, then the last entry is the final attempt and the others are delays', () => {
    const { webhookRetryScheduleMs } = loadConfig({ WEBHOOK_RETRY_SCHEDULE: '100ms, 2s ,1m, 1h' });
    expect(scheduleFromConfig(webhookRetryScheduleMs)).toEqual({
      delaysMs: [100, 2 * S, M],
      finalAttemptAtMs: H,
      jitter: 0.1,
    });
    expect(scheduleFromConfig([30 * S], 0)).toEqual({ delaysMs: [], finalAttemptAtMs: 30 * S, jitter: 0 });
    expect(scheduleFromConfig([])).toEqual({ delaysMs: [], jitter: 0.1 });
  });

  it('when there is no jitter, then a failing delivery is tried at 0, 5 s, 5 min 5 s, 35 min 5 s, 2 h 35 min 5 s, 7 h 35 min 5 s, 17 h 35 min 5 s and 24 h [HOOK-018]', () => {
    const times = attemptTimes(DEFAULT_RETRY_SCHEDULE, () => 0.5);
    expect(times.map((t) => t - T0)).toEqual([
      0,
      5 * S,
      5 * M + 5 * S,
      35 * M + 5 * S,
      2 * H + 35 * M + 5 * S,
      7 * H + 35 * M + 5 * S,
      17 * H + 35 * M + 5 * S,
      24 * H,
    ]);
  });

  it('when the RNG is at its extremes, then each delay stays within ±10 %', () => {
    for (const r of [0, 0.999999]) {
      const times = attemptTimes(DEFAULT_RETRY_SCHEDULE, () => r);
      DEFAULT_RETRY_SCHEDULE.delaysMs.forEach((delay, i) => {
        const actual = times[i + 1]! - times[i]!;
        expect(actual).toBeGreaterThanOrEqual(Math.floor(delay * 0.9));
        expect(actual).toBeLessThanOrEqual(Math.ceil(delay * 1.1));
      });
      expect(times).toHaveLength(8);
      expect(times.at(-1)! - T0).toBe(24 * H);
    }
  });

  it('for any jitter draws and attempt durations, then attempts are increasing, within jitter bounds, at most 8, and nothing is later than 24 h [HOOK-018]', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1 }),
        fc.array(fc.integer({ min: 0, max: 5 * S }), { minLength: 1 }),
        (draws, durations) => {
          let d = 0;
          const times = attemptTimes(
            DEFAULT_RETRY_SCHEDULE,
            () => draws[d++ % draws.length]!,
            (i) => durations[i % durations.length]!,
          );
          expect(times.length).toBeLessThanOrEqual(8);
          expect(times.at(-1)! - T0).toBeLessThanOrEqual(24 * H);
          for (let i = 1; i < times.length; i++) {
            const start = times[i - 1]! + durations[(i - 1) % durations.length]!;
            expect(times[i]!).toBeGreaterThan(times[i - 1]!);
            const delay = DEFAULT_RETRY_SCHEDULE.delaysMs[i - 1];
            if (delay !== undefined && times[i]! - T0 < 24 * H) {
              expect(times[i]! - start).toBeGreaterThanOrEqual(Math.floor(delay * 0.9));
              expect(times[i]! - start).toBeLessThanOrEqual(Math.ceil(delay * 1.1));
            }
          }
        },
      ),
    );
  });

  it('when the deadline has passed, then the delivery is dropped (null)', () => {
    expect(nextAttemptAt({ firstAttemptAt: T0, attemptsMade: 8, now: T0 + 24 * H, random: () => 0.5 })).toBeNull();
    expect(nextAttemptAt({ firstAttemptAt: T0, attemptsMade: 2, now: T0 + 25 * H, random: () => 0.5 })).toBeNull();
  });

  it('when a worker ran late and a delay would cross the deadline, then the next attempt is clamped to the deadline', () => {
    expect(nextAttemptAt({ firstAttemptAt: T0, attemptsMade: 6, now: T0 + 20 * H, random: () => 0.5 })).toBe(
      T0 + 24 * H,
    );
  });

  it('when a schedule has no final attempt, then the delivery is dropped after its last delay', () => {
    const short: RetrySchedule = { delaysMs: [100, 200], jitter: 0 };
    expect(attemptTimes(short, () => 0.5).map((t) => t - T0)).toEqual([0, 100, 300]);
  });

  it('when a short test schedule is used, then it behaves like the default in small', () => {
    const short = scheduleFromConfig([100, 200, S], 0);
    expect(attemptTimes(short, () => 0.5).map((t) => t - T0)).toEqual([0, 100, 300, 1000]);
  });
});

describe('describeSchedule', () => {
  it('when describing the default, then the table lists eight attempts ending at 24 h', () => {
    const table = describeSchedule();
    expect(table).toContain('| 1 | — | 0 | — |');
    expect(table).toContain('| 2 | 5 s ± 10 % | 5 s | 4.5 s … 5.5 s |');
    expect(table).toContain('| 7 | 10 h ± 10 % | 17 h 35 min 5 s |');
    expect(table).toContain('| 8 | until the deadline | 24 h | exactly (a deadline, not a delay) |');
    expect(table).toContain('dropped and recorded; the token stays active');
  });

  it.each([
    [0, '0'],
    [250, '250 ms'],
    [5 * S, '5 s'],
    [4500, '4.5 s'],
    [2 * H + 35 * M + 5 * S, '2 h 35 min 5 s'],
    [24 * H, '24 h'],
  ])('when formatting %i ms, then it reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
