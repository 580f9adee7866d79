// When to try a webhook delivery again after a transient failure (DEC-HOOK-005, HOOK-018).
// The schedule is config (WEBHOOK_RETRY_SCHEDULE, parsed by config.ts) plus a deadline counted
// from the FIRST attempt, so slow timeouts cannot stretch the horizon; each delay gets ±10 %
// jitter; after the last attempt, drop.
import { defaultOf, SECOND } from '../config.ts';

export interface RetrySchedule {
  /** Delay after the n-th failed attempt (n = 1…), before jitter. */
  readonly delaysMs: readonly number[];
  /**
   * The last attempt, at this time after the first one; nothing is sent later. Absent: the
   * delivery is dropped after the last delay's attempt.
   */
  readonly finalAttemptAtMs?: number;
  /** Each delay is multiplied by a factor in [1 − jitter, 1 + jitter]. */
  readonly jitter: number;
}

// @implements DEC-HOOK-018
/**
 * WEBHOOK_RETRY_SCHEDULE (`config.webhookRetryScheduleMs`) as a RetrySchedule: every entry but
 * the last is the delay after a failed attempt; the last is when the final attempt happens,
 * counted from the first.
 */
export function scheduleFromConfig(scheduleMs: readonly number[], jitter = 0.1): RetrySchedule {
  if (scheduleMs.length === 0) return { delaysMs: [], jitter };
  return { delaysMs: scheduleMs.slice(0, -1), finalAttemptAtMs: scheduleMs.at(-1)!, jitter };
}

/** The schedule the service runs when WEBHOOK_RETRY_SCHEDULE is not set. */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = scheduleFromConfig(defaultOf('webhookRetryScheduleMs'));

export interface NextAttemptInput {
  /** Epoch ms of the delivery's first attempt. */
  firstAttemptAt: number;
  /** Attempts made so far, including the one that just failed (≥ 1). */
  attemptsMade: number;
  /** Epoch ms, when the last attempt's outcome is known. */
  now: number;
  schedule?: RetrySchedule;
  /** Uniform in [0, 1); injectable so tests are deterministic. */
  random?: () => number;
}

/** Epoch ms of the next attempt, or null: drop the delivery (record it; the token stays active). */
export function nextAttemptAt(input: NextAttemptInput): number | null {
  const schedule = input.schedule ?? DEFAULT_RETRY_SCHEDULE;
  const random = input.random ?? Math.random;
  const deadline =
    schedule.finalAttemptAtMs === undefined ? undefined : input.firstAttemptAt + schedule.finalAttemptAtMs;
  if (deadline !== undefined && input.now >= deadline) return null;

  const delay = schedule.delaysMs[input.attemptsMade - 1];
  if (delay === undefined) return deadline ?? null;
  const factor = 1 - schedule.jitter + 2 * schedule.jitter * random();
  const next = input.now + Math.round(delay * factor);
  return deadline === undefined ? next : Math.min(next, deadline);
}

/** "2 h 35 min 5 s", "4.5 s", "250 ms", "0" (seconds to one decimal). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0';
  if (ms < SECOND) return `${Math.round(ms)} ms`;
  const tenths = Math.round(ms / 100);
  const h = Math.floor(tenths / 36_000);
  const min = Math.floor((tenths % 36_000) / 600);
  const s = (tenths % 600) / 10;
  const parts = [h > 0 ? `${h} h` : '', min > 0 ? `${min} min` : '', s > 0 ? `${s} s` : ''];
  return parts.filter(Boolean).join(' ');
}

/** The attempt/delay table for the docs, as Markdown, assuming each attempt takes no time. */
export function describeSchedule(schedule: RetrySchedule = DEFAULT_RETRY_SCHEDULE): string {
  const pct = Math.round(schedule.jitter * 100);
  const rows = [
    '| Attempt | Delay after the previous failure | Time since the first attempt | With jitter |',
    '|---|---|---|---|',
    '| 1 | — | 0 | — |',
  ];
  let nominal = 0;
  let earliest = 0;
  let latest = 0;
  const final = schedule.finalAttemptAtMs;
  schedule.delaysMs.forEach((delay, i) => {
    nominal += delay;
    earliest += delay * (1 - schedule.jitter);
    latest += delay * (1 + schedule.jitter);
    if (final !== undefined && earliest >= final) return; // always clamped into the final attempt
    const clamp = (t: number) => (final === undefined ? t : Math.min(t, final));
    rows.push(
      `| ${i + 2} | ${formatDuration(delay)} ± ${pct} % | ${formatDuration(clamp(nominal))} | ${formatDuration(clamp(earliest))} … ${formatDuration(clamp(latest))} |`,
    );
  });
  if (final !== undefined)
    rows.push(
      `| ${rows.length - 1} | until the deadline | ${formatDuration(final)} | exactly (a deadline, not a delay) |`,
    );
  const end = 'After the last attempt the delivery is dropped and recorded; the token stays active.';
  return `${rows.join('\n')}\n\n${end}\n`;
}
