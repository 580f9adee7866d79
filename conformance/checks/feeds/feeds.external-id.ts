import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { feed, feedEvent, feedName, findImported, partnerId, runFeed } from '../../support/feeds.ts';

// FEED-006: externalID runs one entry and size is then ignored. Three new entries; size=1 alone
// would take the first, so externalID=<third> with size=1 must import the third (and only it).
// DEC-FEED-004: externalID also takes the full externalId, and an entry the feed does not hold
// is reported in the run's errors.

export default defineCheck({
  id: 'feeds.external-id',
  title:
    "externalID runs only that entry and ignores size (size=1 with the third entry's id imports the third, not the first); the full externalId works too, and an unknown one is reported in errors",
  requirements: ['FEED-006', 'DEC-FEED-004', 'DEC-FEED-002'],
  tags: ['feeds'],
  needs: ['feed'],
  writes: 'two events imported through the feed (partner ids tagged with the run id)',
  run: async (ctx) => {
    const { partner } = feed(ctx);
    const ids = ['a', 'b', 'c'].map((l) => partnerId(ctx, `one-${l}`));
    const [a, b, c] = ids as [string, string, string];
    partner.serve(ids.map((id) => feedEvent(id)));

    const run = await runFeed(ctx, { externalID: c, size: 1 }, { requirements: ['FEED-006'] });
    const found = await findImported(ctx, run, ids, ['FEED-006']);
    const evidence = [run.res.exchange, found.res.exchange];
    if (!found.items.has(c)) {
      throw new CheckFailure({
        message: `a run with externalID=${c}&size=1 did not import that entry (the third of the document); run: ${JSON.stringify(run.report.imported)}, errors ${JSON.stringify(run.report.errors.slice(0, 2))}`,
        received: [...found.items.keys()],
        expected: [c],
        requirements: ['FEED-006'],
        exchanges: evidence,
      });
    }
    if (found.items.size > 1) {
      throw new CheckFailure({
        message: `a run with externalID=${c} imported other entries too`,
        received: [...found.items.keys()],
        expected: [c],
        requirements: ['FEED-006'],
        exchanges: evidence,
      });
    }
    ctx.verified(['FEED-006']);

    // Decisions: the full externalId; an id the feed does not hold.
    const name = feedName(ctx, { externalId: found.items.get(c)!.externalId, id: c });
    if (name !== undefined) {
      const full = await runFeed(ctx, { externalID: `${name}:${b}` }, { requirements: ['DEC-FEED-004'] });
      const fullFound = await findImported(ctx, full, [a, b], ['DEC-FEED-004']);
      if (!fullFound.items.has(b) || fullFound.items.has(a)) {
        throw new CheckFailure({
          message: `a run with the full externalId (externalID=${name}:${b}) did not import just that entry`,
          received: [...fullFound.items.keys()],
          expected: [b],
          requirements: ['DEC-FEED-004'],
          exchanges: [full.res.exchange, fullFound.res.exchange],
        });
      }
    } else {
      ctx.unverified(
        ['DEC-FEED-004'],
        "the feed's name is unknown (its externalIds are not <name>:<partner id>, and no --feed-name): the full-externalId form was not tried",
      );
    }
    const missing = partnerId(ctx, 'not-in-feed');
    const none = await runFeed(ctx, { externalID: missing }, { requirements: ['DEC-FEED-004'] });
    if (none.report.errors.length === 0 || none.report.converted > 0) {
      throw new CheckFailure({
        message: `a run with externalID=${missing}, which the feed does not hold, reported no error`,
        received: { converted: none.report.converted, errors: none.report.errors },
        expected: 'nothing converted, the missing entry in errors',
        requirements: ['DEC-FEED-004'],
        exchanges: [none.res.exchange],
      });
    }
    const answers = [run, none].filter((r) => r.async);
    if (answers.length > 0) {
      throw new CheckFailure({
        message: 'a run with externalID answered before it ended (202) instead of with its report',
        received: answers[0]!.res.status,
        expected: '200 with the finished run',
        pointer: 'status',
        requirements: ['DEC-FEED-002'],
        exchanges: [answers[0]!.res.exchange],
      });
    }
  },
});
