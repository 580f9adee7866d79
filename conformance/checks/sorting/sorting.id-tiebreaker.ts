import { defineCheck } from '../../model/check.ts';
import { ALL_STATUSES } from '../../support/itemTypes.ts';
import { catalogue, listCatalogue } from '../../support/sharedItems.ts';
import { pageByNumber } from '../../support/lists.ts';
import { writerToken } from '../../support/organisations.ts';
import { assertPagesAreDisjointAndComplete, assertSortedBy } from '../../support/listAssertions.ts';

export default defineCheck({
  id: 'sorting.id-tiebreaker',
  title:
    'Items with equal titles are ordered by id ascending in both sort orders, so paging by title with size 1 neither repeats nor drops an item',
  requirements: ['DEC-LIST-003'],
  tags: ['sorting', 'decision'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue (nine event groups with titles in equal pairs, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const listSortedByTitle = async (order: 'ASC' | 'DESC') => {
      const list = await listCatalogue(ctx, cat, { sortField: 'title', sortOrder: order });
      assertSortedBy(list.own, 'title', order, list.res, { tiebreaker: true });
      return list;
    };
    const ascending = await listSortedByTitle('ASC');
    await listSortedByTitle('DESC');
    const pages = await pageByNumber(
      ctx,
      cat.collection,
      { lastupdated: cat.before, wfstatus: ALL_STATUSES, sortField: 'title', sortOrder: 'ASC' },
      { size: 2, token: writerToken(ctx) },
    );
    assertPagesAreDisjointAndComplete(pages, ascending.own);
  },
});
