import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { acknowledge, assertStatus } from '../../support/assert.ts';

export default defineCheck({
  id: 'feeds.size-range',
  title: 'fetchAndConvertOnce takes size 1 to 1000: 0 and 1001 answer 400 (nothing runs)',
  requirements: ['LIMIT-004'],
  tags: ['feeds', 'limits'],
  needs: ['admin', 'write'],
  writes: 'nothing (a feed run only if the target wrongly accepts the size)',
  run: async (ctx) => {
    const feed = ctx.config.feedId ?? `${ctx.runId}-no-such-feed`;
    for (const size of [0, 1001]) {
      const res = await ctx.http.post(`/feeds/${encodeURIComponent(feed)}/fetchAndConvertOnce`, {
        query: { size },
        token: 'admin',
        validate: 'defer',
      });
      if (res.status === 404 && !ctx.config.feedId) {
        acknowledge([res]);
        ctx.skip(
          'the target looks the feed up before it checks size: give an inbound feed of --account-id with --feed-id',
        );
      }
      if (res.status < 300) {
        throw new CheckFailure({
          message: `POST /feeds/${feed}/fetchAndConvertOnce?size=${size} answered ${res.status}: a feed run started`,
          received: res.status,
          expected: 400,
          pointer: 'status',
          exchanges: [res.exchange],
        });
      }
      assertStatus(res, 400, {
        message: `POST /feeds/${feed}/fetchAndConvertOnce?size=${size} answered ${res.status}; size is 1 to 1000`,
      });
      res.assertConforms();
    }
  },
});
