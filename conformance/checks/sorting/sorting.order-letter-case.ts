import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { catalogue, listCatalogue } from '../../support/sharedItems.ts';

export default defineCheck({
  id: 'sorting.order-letter-case',
  title: 'sortOrder asc and desc in lower case give the same order as ASC and DESC',
  requirements: ['DEC-LIST-004'],
  tags: ['sorting', 'decision'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue (nine event groups, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    for (const order of ['ASC', 'DESC']) {
      const upper = await listCatalogue(ctx, cat, { sortField: 'trcid', sortOrder: order });
      const lower = await listCatalogue(
        ctx,
        cat,
        { sortField: 'trcid', sortOrder: order.toLowerCase() },
        { validate: 'defer' },
      );
      lower.res.assertConforms();
      const [a, b] = [upper.own.map((i) => i.trcid).join(), lower.own.map((i) => i.trcid).join()];
      if (a !== b)
        throw new CheckFailure({
          message: `sortOrder=${order.toLowerCase()} orders differently from ${order}`,
          received: b,
          expected: a,
          exchanges: [lower.res.exchange],
        });
    }
  },
});
