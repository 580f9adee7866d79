import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { acknowledge } from '../../support/assert.ts';
import { feed, feedEvent, findImported, partnerId, runFeed } from '../../support/feeds.ts';

// FEED-005: feedInfoId scopes a run to one sub-feed. The partner's main document holds an entry
// of the sub-feed (feedInfoId, --feed-info-id) and one of no sub-feed; the sub-feed's own
// document (for a feed that declares it with a URL) holds only the first.

export default defineCheck({
  id: 'feeds.sub-feed',
  title: 'feedInfoId scopes a run to one sub-feed: the entry of that sub-feed is imported, an entry outside it is not',
  requirements: ['FEED-005', 'DEC-FEED-002'],
  tags: ['feeds'],
  needs: ['feed'],
  writes: 'one event imported through the feed (partner ids tagged with the run id)',
  run: async (ctx) => {
    const { partner, path, subFeed } = feed(ctx);
    const inside = partnerId(ctx, 'sub');
    const outside = partnerId(ctx, 'main');
    partner.serve([feedEvent(outside), feedEvent(inside, {}, { feedInfoId: subFeed })]);

    const run = await runFeed(
      ctx,
      { feedInfoId: subFeed, size: 10 },
      {
        requirements: ['FEED-005'],
        onRefused: (res) => {
          if (res.status !== 400) return;
          acknowledge([res]);
          ctx.skip(
            `the feed ${ctx.config.feedId} has no sub-feed ${subFeed} (POST ${path}?feedInfoId=${subFeed} answered 400: ${String((res.body as { message?: unknown } | undefined)?.message ?? '')}); declare one, or name yours with --feed-info-id`,
          );
        },
      },
    );
    const found = await findImported(ctx, run, [inside, outside], ['FEED-005']);
    const evidence = [run.res.exchange, found.res.exchange];
    if (found.items.has(outside)) {
      throw new CheckFailure({
        message: `a run with feedInfoId=${subFeed} imported an entry of no sub-feed (${outside})`,
        received: [...found.items.keys()],
        expected: [inside],
        requirements: ['FEED-005'],
        exchanges: evidence,
      });
    }
    if (!found.items.has(inside)) {
      throw new CheckFailure({
        message: `a run with feedInfoId=${subFeed} did not import the entry of that sub-feed (${inside}); run: ${JSON.stringify(run.report.imported)}, errors ${JSON.stringify(run.report.errors.slice(0, 2))}`,
        received: [...found.items.keys()],
        expected: [inside],
        requirements: ['FEED-005'],
        exchanges: evidence,
      });
    }
  },
});
