import { PAGE_SIZE } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { COLLECTIONS } from '../../support/collections.ts';
import { listItems } from '../../support/lists.ts';

export default defineCheck({
  id: 'lists.size-2000',
  title: 'size=2000, the maximum page size, is accepted on every collection and answers at most 2000 items',
  requirements: ['LIMIT-001'],
  tags: ['lists', 'limits'],
  needs: ['consumer'],
  dependsOn: ['lists.bare-array'],
  run: async (ctx) => {
    for (const { path } of COLLECTIONS) {
      const { res, items } = await listItems(ctx, path, { size: PAGE_SIZE.maximum });
      if (items.length > PAGE_SIZE.maximum)
        throw new CheckFailure({
          message: `GET ${path}?size=2000 returned ${items.length} items`,
          received: items.length,
          expected: 'at most 2000',
          exchanges: [res.exchange],
        });
    }
  },
});
