import { defineCheck } from '../../model/check.ts';
import { assertStatus } from '../../support/assert.ts';

export default defineCheck({
  id: 'feeds.unknown-feed',
  title: 'fetchAndConvertOnce of a feed the account does not have answers 404',
  requirements: ['DEC-FEED-004'],
  tags: ['feeds'],
  needs: ['admin'],
  run: async (ctx) => {
    const feed = `${ctx.runId}-no-such-feed`;
    const res = await ctx.http.post(`/feeds/${encodeURIComponent(feed)}/fetchAndConvertOnce`, {
      query: { size: 1 },
      token: 'admin',
      validate: 'defer',
    });
    assertStatus(res, 404, { message: `POST /feeds/${feed}/fetchAndConvertOnce answered ${res.status}` });
    res.assertConforms();
  },
});
