import { describe, expect, it, vi } from 'vitest';
import type { HttpResponse } from '../http/httpClient.ts';
import type { CheckContext } from '../engine/runtime/context.ts';
import { countBy, describeCounts, LIMITED, paced } from './ratelimits.ts';

const answer = (status: number) => ({ status }) as HttpResponse;

describe('rate-limit helpers', () => {
  it('when answers are counted, then each status is tallied', () => {
    const answers = [200, 200, 429, 200, 503].map(answer);
    expect(countBy(answers)).toEqual({ 200: 3, 429: 1, 503: 1 });
    expect(describeCounts(answers)).toBe('3 × 200, 1 × 429, 1 × 503');
  });

  it("when the limited operations are listed, then they are the interface's six", () => {
    expect(LIMITED.map((l) => l.path)).toEqual([
      '/events',
      '/locations',
      '/routes',
      '/eventgroups',
      '/venues',
      '/dictionary',
    ]);
  });

  it('when requests are paced, then each is sent at its due time without waiting for answers', async () => {
    // On a fake clock: the schedule is the behaviour under test, not the machine's timer precision.
    vi.useFakeTimers();
    try {
      const sent: number[] = [];
      const ctx = {
        sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
        http: {
          get: () => (sent.push(Date.now()), new Promise<HttpResponse>((r) => setTimeout(() => r(answer(200)), 500))),
        },
      } as unknown as CheckContext;
      const start = Date.now();
      const running = paced(ctx, 20, 500);
      await vi.advanceTimersByTimeAsync(1000);
      const answers = await running;
      expect(answers).toHaveLength(10);
      // Never ahead of the rate, and all sent before the first answer came (not serialised behind them).
      expect(sent.map((t) => t - start)).toEqual([0, 50, 100, 150, 200, 250, 300, 350, 400, 450]);
    } finally {
      vi.useRealTimers();
    }
  });
});
