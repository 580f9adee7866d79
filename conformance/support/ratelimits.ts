// Rate-limit checks: the six limited operations, a concurrent burst, a paced series and the
// refill wait. The suite shares the target's per-IP budget with every other check, so these
// checks run last (order: 'last') and wait for the bucket to refill first.

import { RATE_LIMIT } from '../../generated/constants.ts';
import type { HttpResponse } from '../http/httpClient.ts';
import type { CheckContext } from '../engine/runtime/context.ts';

/** The six rate-limited operations (Limits: rate limit scope). */
export const LIMITED: readonly { path: string; query?: Record<string, number> }[] = [
  { path: '/events', query: { size: 1 } },
  { path: '/locations', query: { size: 1 } },
  { path: '/routes', query: { size: 1 } },
  { path: '/eventgroups', query: { size: 1 } },
  { path: '/venues', query: { size: 1 } },
  { path: '/dictionary' },
];

/**
 * How long a drained bucket takes to refill: burst 40 at 20 per second is 2 s (DEC-RATE-001),
 * plus a margin.
 */
export const REFILL_MS = 2_500;

/** The interface's numbers: 20 requests per second sustained, a burst of 40 above that. */
export const SUSTAINED_PER_SECOND = RATE_LIMIT.perSecond;
export const BURST_ALLOWANCE = RATE_LIMIT.burst;

/**
 * How many of a concurrent burst from rest a conforming limiter lets through, given how long the
 * burst took to be answered (its requests arrive spread over that time and the limit refills
 * meanwhile). At least the burst of 40: a token bucket of 40 passes 40, a GCRA with a tolerance of
 * 40 intervals 41, a sliding window of 40 per 2 s 40. At most the first second's 20 plus the
 * burst of 40 (the generous reading, "60 in the first second"), one for a GCRA's first slot, and
 * what refills while the burst is answered. That maximum bounds any stretch of traffic too: the
 * sustained rate over its length plus one burst.
 */
export function burstAllowance(spreadMs: number): { min: number; max: number } {
  const refill = Math.ceil((SUSTAINED_PER_SECOND * Math.max(0, spreadMs)) / 1000);
  return { min: BURST_ALLOWANCE, max: SUSTAINED_PER_SECOND + BURST_ALLOWANCE + 1 + refill };
}

/** `count` concurrent GETs of a limited list; 429s are handed back, never waited out. */
export async function burst(
  ctx: CheckContext,
  count: number,
  path = '/events',
  query: Record<string, number> | undefined = { size: 1 },
): Promise<HttpResponse[]> {
  return Promise.all(
    Array.from({ length: count }, () => ctx.http.get(path, { query, on429: 'return', validate: 'defer' })),
  );
}

/**
 * Sends every request with at most `inFlight` outstanding, answers in the order given: fast enough
 * to outrun a limiter, without needing more connections at once than a target may allow one client.
 */
export async function sendAll(
  sends: readonly (() => Promise<HttpResponse>)[],
  inFlight: number,
): Promise<HttpResponse[]> {
  const answers: HttpResponse[] = new Array(sends.length);
  let next = 0;
  const worker = async () => {
    while (next < sends.length) {
      const i = next++;
      answers[i] = await sends[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, sends.length) }, worker));
  return answers;
}

/**
 * Opens `count` connections to the target with an unlimited endpoint (the health check), so that
 * a burst right after goes out on open connections and reaches the limiter close together, not
 * spread over as many connection set-ups (a spread the limit refills during).
 */
export async function openConnections(ctx: CheckContext, count: number): Promise<void> {
  const answers = await Promise.all(
    Array.from({ length: count }, () =>
      ctx.http.get('/actuator/health', { token: 'none', on429: 'return', validate: 'defer' }),
    ),
  );
  for (const res of answers) res.problems = [];
}

/** GETs sent at a fixed rate (not waiting for answers), for `durationMs`. */
export async function paced(
  ctx: CheckContext,
  perSecond: number,
  durationMs: number,
  path = '/events',
): Promise<HttpResponse[]> {
  const count = Math.floor((durationMs * perSecond) / 1000);
  const interval = 1000 / perSecond;
  const start = Date.now();
  const sent: Promise<HttpResponse>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + i * interval - Date.now();
    if (due > 0) await ctx.sleep(due);
    sent.push(ctx.http.get(path, { query: { size: 1 }, on429: 'return', validate: 'defer' }));
  }
  return Promise.all(sent);
}

export function countBy(answers: readonly HttpResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of answers) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

export function describeCounts(answers: readonly HttpResponse[]): string {
  return Object.entries(countBy(answers))
    .map(([status, n]) => `${n} × ${status}`)
    .join(', ');
}
