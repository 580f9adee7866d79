import { PAGE_SIZE } from '../../../generated/constants.ts';
import type { HttpResponse } from '../../http/httpClient.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { SIZE_CAP_ENFORCED_FROM } from '../../support/amsterdam.ts';
import { assertBodyHas, assertBodyIsArray, assertStatus } from '../../support/assert.ts';
import { COLLECTIONS } from '../../support/collections.ts';

// A different oversized value per collection, so a message echoing a fixed number is caught.
const OVERSIZED = [2001, 2500, 3000, 4000, 5000];

export default defineCheck({
  id: 'limits.size-cap',
  title:
    'size above 2000 on a root collection: 400 with the exact body from 1 November 2026 (Amsterdam), before that 200 with at most 2000 items',
  requirements: ['LIMIT-002', 'LIMIT-003', 'ERR-001'],
  tags: ['limits'],
  needs: ['consumer'],
  run: async (ctx) => {
    const answers: { path: string; size: number; res: HttpResponse; enforced: boolean }[] = [];
    for (const [i, { path }] of COLLECTIONS.entries()) {
      const size = OVERSIZED[i]!;
      const res = await ctx.http.get(path, { query: { size }, validate: 'defer' });
      // The target's own clock decides which rule is in force, not ours.
      if (!res.date) ctx.note('the target sent no valid Date header; the local clock decided which size rule applies');
      answers.push({ path, size, res, enforced: (res.date ?? new Date()) >= SIZE_CAP_ENFORCED_FROM });
    }
    const enforced = answers.filter((a) => a.enforced);
    const lenient = answers.filter((a) => !a.enforced);
    for (const phase of [enforced, lenient]) {
      const first = phase[0];
      if (first)
        ctx.note(
          `server time ${(first.res.date ?? new Date()).toISOString()} is ${first.enforced ? 'on or after' : 'before'} ${SIZE_CAP_ENFORCED_FROM.toISOString()} (1 November 2026, Europe/Amsterdam)`,
        );
    }

    // Status first on every collection (LIMIT-002/003), then the exact body (ERR-001).
    for (const { path, size, res } of enforced) {
      assertStatus(res, 400, {
        requirements: ['LIMIT-003', 'ERR-001'],
        message: `GET ${path}?size=${size} answered ${res.status}; from 1 November 2026 a size above ${PAGE_SIZE.maximum} is a 400`,
      });
    }
    for (const { path, size, res } of lenient) {
      assertStatus(res, 200, {
        requirements: ['LIMIT-002'],
        message: `GET ${path}?size=${size} answered ${res.status}; before 1 November 2026 an oversized size answers 200`,
      });
      const items = assertBodyIsArray(res, { requirements: ['LIMIT-002'] });
      if (items.length > PAGE_SIZE.maximum) {
        throw new CheckFailure({
          message: `GET ${path}?size=${size} returned ${items.length} items`,
          received: items.length,
          expected: `at most ${PAGE_SIZE.maximum}`,
          requirements: ['LIMIT-002'],
          exchanges: [res.exchange],
        });
      }
      res.assertConforms(['LIMIT-002']);
    }
    if (enforced.length > 0) ctx.verified(['LIMIT-003']);
    if (lenient.length > 0) ctx.verified(['LIMIT-002']);
    for (const { size, res } of enforced) {
      assertBodyHas(
        res,
        {
          status: 400,
          error: 'Bad Request',
          message: `size must not exceed ${PAGE_SIZE.maximum} (requested: ${size})`,
        },
        { requirements: ['ERR-001'] },
      );
      res.assertConforms(['ERR-001']);
    }
    // The earlier rule can never be observed again once the target's clock is past the date.
    if (lenient.length === 0)
      ctx.unobservable(
        ['LIMIT-002'],
        "the target's clock is past 1 November 2026, so the earlier behaviour cannot be observed",
      );
    if (enforced.length === 0)
      ctx.unverified(
        ['ERR-001', 'LIMIT-003'],
        "the target's clock is before 1 November 2026, so the 400 rule is not in force yet",
      );
  },
});
