import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { acknowledge, assertStatus } from '../../support/assert.ts';

export default defineCheck({
  id: 'feeds.admin-only',
  title: 'POST /feeds/{feedID}/fetchAndConvertOnce is refused (403) for a token without an admin role',
  requirements: ['FEED-003', 'DEC-ERR-002'],
  tags: ['feeds', 'security'],
  // It POSTs to a feed: a broken target would start a run, so not in the read-only profile.
  needs: ['consumer', 'write'],
  writes: 'nothing (a feed run only if the target wrongly lets a consumer start one)',
  run: async (ctx) => {
    const feed = ctx.config.feedId ?? `${ctx.runId}-no-such-feed`;
    const res = await ctx.http.post(`/feeds/${encodeURIComponent(feed)}/fetchAndConvertOnce`, {
      query: { size: 1 },
      token: 'consumer',
      validate: 'defer',
    });
    if (res.status < 400) {
      throw new CheckFailure({
        message: `a consumer token started a feed run: POST /feeds/${feed}/fetchAndConvertOnce answered ${res.status}`,
        received: res.status,
        expected: '403 (admin only)',
        pointer: 'status',
        requirements: ['FEED-003'],
        exchanges: [res.exchange],
      });
    }
    if (res.status === 404 && !ctx.config.feedId) {
      // Refused, but perhaps only because the feed does not exist.
      ctx.unverified(
        ['FEED-003'],
        'without --feed-id the suite can only ask for an unknown feed, and the target answered 404 before looking at the role',
      );
      acknowledge([res]);
      return;
    }
    ctx.verified(['FEED-003']);
    assertStatus(res, 403, {
      requirements: ['DEC-ERR-002'],
      message: `the consumer token's feed run was refused with ${res.status}; DEC-ERR-002 makes a missing role a 403`,
    });
    res.assertConforms(['DEC-ERR-002']);
  },
});
