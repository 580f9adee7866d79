import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { ALL_STATUSES } from '../../support/itemTypes.ts';
import { catalogue, listCatalogue } from '../../support/sharedItems.ts';
import { listItems, pageByNumber } from '../../support/lists.ts';
import { writerToken } from '../../support/organisations.ts';
import { assertPagesAreDisjointAndComplete } from '../../support/listAssertions.ts';

const SIZE = 2;

export default defineCheck({
  id: 'paging.page-number',
  title:
    'page is accepted as an integer page number; zero-based, it skips page × size items of the same sorted result, so pages of 2 until a short page hold every item once',
  requirements: ['PAGE-002', 'DEC-LIST-002'],
  tags: ['paging'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue (nine event groups, tagged with the run id)",
  dependsOn: ['lists.bare-array'],
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const query = { lastupdated: cat.before, wfstatus: ALL_STATUSES, sortField: 'lastupdated', sortOrder: 'ASC' };
    // PAGE-002: the parameter is accepted.
    await listItems(ctx, cat.collection, { ...query, size: SIZE, page: 1 }, { requirements: ['PAGE-002'] });
    ctx.verified(['PAGE-002']);
    const all = await listCatalogue(ctx, cat, { sortField: 'lastupdated', sortOrder: 'ASC' });
    const first = await listItems(ctx, cat.collection, { ...query, size: SIZE }, { token: writerToken(ctx) });
    const pages = await pageByNumber(ctx, cat.collection, query, {
      size: SIZE,
      token: writerToken(ctx),
      requirements: ['DEC-LIST-002'],
    });
    if (JSON.stringify(first.items.map((i) => i.id)) !== JSON.stringify(pages[0]!.items.map((i) => i.id))) {
      throw new CheckFailure({
        message: 'page=0 is not the first page (the one without page)',
        received: pages[0]!.items.map((i) => i.trcid),
        expected: first.items.map((i) => i.trcid),
        requirements: ['DEC-LIST-002'],
        exchanges: [pages[0]!.res.exchange, first.res.exchange],
      });
    }
    assertPagesAreDisjointAndComplete(pages, all.own, { requirements: ['DEC-LIST-002'] });
  },
});
