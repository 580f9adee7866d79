import fc from 'fast-check';
import { defineCheck } from '../../model/check.ts';
import { assertProperty } from '../../support/property.ts';
import { ALL_STATUSES } from '../../support/itemTypes.ts';
import { catalogue, listCatalogue } from '../../support/sharedItems.ts';
import { pageByKeyset, pageByNumber } from '../../support/lists.ts';
import { writerToken } from '../../support/organisations.ts';
import { assertKeysetPagingIsComplete, assertPagesAreDisjointAndComplete } from '../../support/listAssertions.ts';

const MAX_RUNS = 10;

export default defineCheck({
  id: 'properties.paging-partitions',
  title:
    "Property: paging the suite's items at any size from 2 to 8, by keyset (lastupdated) or by page number, until a short page, yields each item exactly once, in the order of the unpaged list",
  requirements: ['PAGE-001', 'PAGE-003', 'PAGE-004', 'FILTER-001', 'DEC-LIST-002'],
  tags: ['paging', 'property'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue (nine event groups, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const all = await listCatalogue(ctx, cat, { sortField: 'lastupdated', sortOrder: 'ASC' });
    const cases = fc.record({
      size: fc.integer({ min: 2, max: 8 }),
      by: fc.constantFrom('keyset' as const, 'page' as const),
    });
    await assertProperty(
      ctx,
      fc.asyncProperty(cases, async ({ size, by }) => {
        const token = writerToken(ctx);
        if (by === 'keyset') {
          const pages = await pageByKeyset(
            ctx,
            cat.collection,
            { wfstatus: ALL_STATUSES },
            { size, from: cat.from, token, requirements: ['PAGE-001', 'PAGE-003'] },
          );
          assertKeysetPagingIsComplete(pages, all.own, { first: cat.entries[0]!.item });
        } else {
          const query = { lastupdated: cat.before, wfstatus: ALL_STATUSES, sortField: 'lastupdated', sortOrder: 'ASC' };
          const pages = await pageByNumber(ctx, cat.collection, query, { size, token, requirements: ['DEC-LIST-002'] });
          assertPagesAreDisjointAndComplete(pages, all.own, { requirements: ['DEC-LIST-002'] });
        }
      }),
      { numRuns: Math.min(ctx.fc.numRuns, MAX_RUNS) },
    );
  },
});
