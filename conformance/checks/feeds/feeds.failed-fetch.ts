import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { feed, feedEvent, findImported, partnerId, runFeed } from '../../support/feeds.ts';

// DEC-FEED-009: a partner fetch that fails fails the run before anything is imported, and
// redirects are not followed. The partner answers 503, then a 302 to a URL that would answer
// the entry.

export default defineCheck({
  id: 'feeds.failed-fetch',
  title:
    'A partner fetch that fails (503) or redirects (302) fails the run with an error, and nothing is imported; the redirect is not followed',
  requirements: ['DEC-FEED-009', 'DEC-FEED-002'],
  tags: ['feeds', 'security'],
  needs: ['feed'],
  writes: 'nothing (an event only if the target imports from a failed or redirected fetch)',
  run: async (ctx) => {
    const { partner } = feed(ctx);
    for (const fail of [{ status: 503 }, 'redirect'] as const) {
      const id = partnerId(ctx, typeof fail === 'string' ? 'redirected' : 'unavailable');
      const what = typeof fail === 'string' ? 'a redirect (302)' : `status ${fail.status}`;
      partner.serve([feedEvent(id)], { fail });
      const run = await runFeed(ctx, { size: 1 }, { requirements: ['DEC-FEED-009'], allowFailed: true });
      const found = await findImported(ctx, run, [id], ['DEC-FEED-009']);
      const followed = partner.requests.some((r) => r.receivedAt >= run.sentAt && r.status === 200);
      if (run.report.status !== 'failed' || run.report.errors.length === 0 || found.items.size > 0 || followed) {
        throw new CheckFailure({
          message: `the partner answered ${what}, and the run ${run.report.status === 'failed' ? 'failed' : `ended ${run.report.status}`}${found.items.size > 0 ? ' with the entry imported' : ''}${followed ? ' after following the redirect' : ''}${run.report.errors.length === 0 ? ', reporting no error' : ''}`,
          received: {
            status: run.report.status,
            errors: run.report.errors,
            imported: found.items.size,
            followedRedirect: followed,
          },
          expected: { status: 'failed', errors: 'the failed fetch', imported: 0, followedRedirect: false },
          requirements: ['DEC-FEED-009'],
          exchanges: [run.res.exchange, found.res.exchange],
        });
      }
    }
  },
});
