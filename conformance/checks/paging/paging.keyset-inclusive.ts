import { defineCheck } from '../../model/check.ts';
import { ALL_STATUSES } from '../../support/itemTypes.ts';
import { catalogue, listCatalogue } from '../../support/sharedItems.ts';
import { pageByKeyset } from '../../support/lists.ts';
import { writerToken } from '../../support/organisations.ts';
import { assertKeysetPagingIsComplete } from '../../support/listAssertions.ts';

const SIZE = 3;

export default defineCheck({
  id: 'paging.keyset-inclusive',
  title:
    "Keyset paging with size 3 over the suite's 9 items: each next page (lastupdated = the last item's lastupdated) returns the boundary item again, and paging until a short page yields every item once, in order",
  requirements: ['PAGE-001', 'PAGE-003', 'PAGE-004', 'FILTER-001'],
  tags: ['paging', 'sync'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue: nine event groups in every status (tagged with the run id)",
  dependsOn: ['lists.bare-array'],
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const all = await listCatalogue(ctx, cat, { sortField: 'lastupdated', sortOrder: 'ASC' });
    const pages = await pageByKeyset(
      ctx,
      cat.collection,
      { wfstatus: ALL_STATUSES },
      { size: SIZE, from: cat.from, token: writerToken(ctx), requirements: ['PAGE-001', 'PAGE-003'] },
    );
    ctx.note(`${pages.length} keyset pages of ${SIZE} over ${all.items.length} items since ${cat.from}`);
    assertKeysetPagingIsComplete(pages, all.own, { first: cat.entries[0]!.item });
  },
});
