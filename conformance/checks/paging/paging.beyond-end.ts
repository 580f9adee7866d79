import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { ALL_STATUSES } from '../../support/itemTypes.ts';
import { catalogue } from '../../support/sharedItems.ts';
import { listItems } from '../../support/lists.ts';
import { writerToken } from '../../support/organisations.ts';

export default defineCheck({
  id: 'paging.beyond-end',
  title: 'A page beyond the end of the result answers an empty array, not an error',
  requirements: ['DEC-LIST-010'],
  tags: ['paging', 'decision'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue (nine event groups, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const { items, res } = await listItems(
      ctx,
      cat.collection,
      { trcid: cat.trcids[0]!, wfstatus: ALL_STATUSES, size: 5, page: 3 },
      { token: writerToken(ctx) },
    );
    if (items.length > 0)
      throw new CheckFailure({
        message: 'page 3 of a one-item result is not empty',
        received: items.length,
        expected: 0,
        exchanges: [res.exchange],
      });
  },
});
