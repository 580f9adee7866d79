import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../http/httpClient.ts';
import type { CheckContext } from '../runtime/context.ts';
import { countBy, describeCounts, LIMITED, paced } from './ratelimits.ts';

const answer = (status: number) => ({ status }) as HttpResponse;

describe('rate-limit helpers', () => {
  it('when answers are counted, then each status is tallied', () => {
    const answers = [200, 200, 429, 200, 503].map(answer);
    expect(countBy(answers)).toEqual({ 200: 3, 429: 1, 503: 1 });
    expect(describeCounts(answers)).toBe('3 × 200, 1 × 429, 1 × 503');
  });

  it('when the limited operations are listed, then they are the interface\'s six', () => {
    expect(LIMITED.map((l) => l.path)).toEqual(['/events', '/locations', '/routes', '/eventgroups', '/venues', '/dictionary']);
  });

  it('when requests are paced, then they are sent at the rate without waiting for answers', async () => {
    const sent: number[] = [];
    const ctx = {
      sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
      http: { get: () => (sent.push(Date.now()), new Promise<HttpResponse>((r) => setTimeout(() => r(answer(200)), 500))) },
    } as unknown as CheckContext;
    const start = Date.now();
    const answers = await paced(ctx, 20, 500);
    expect(answers).toHaveLength(10);
    const gaps = sent.slice(1).map((t, i) => t - sent[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(40);
    expect(sent.at(-1)! - start).toBeLessThan(600); // not serialised behind the 500 ms answers
  });
});
