import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { catalogue, listCatalogue } from '../../support/sharedItems.ts';
import { assertSortedBy } from '../../support/listAssertions.ts';

export default defineCheck({
  id: 'sorting.defaults',
  title:
    'Without sortField and sortOrder a list is sorted by lastupdated, newest first (DESC), the same as asking for it',
  requirements: ['SORT-002', 'SORT-003'],
  tags: ['sorting'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue (nine event groups, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const plain = await listCatalogue(ctx, cat);
    // In lastupdated ASC order only the default sortOrder is wrong; in no lastupdated order, the default sortField.
    const ascending = plain.own.every(
      (item, i) => i === 0 || Date.parse(String(plain.own[i - 1]!.lastupdated)) <= Date.parse(String(item.lastupdated)),
    );
    assertSortedBy(plain.own, 'lastupdated', 'DESC', plain.res, {
      requirements: ascending ? ['SORT-003'] : ['SORT-002'],
      message: 'without sortField/sortOrder the items are not in lastupdated DESC order',
    });
    const asked = await listCatalogue(ctx, cat, { sortField: 'lastupdated', sortOrder: 'DESC' });
    const a = plain.own.map((i) => i.trcid);
    const b = asked.own.map((i) => i.trcid);
    if (a.join() !== b.join())
      throw new CheckFailure({
        message: 'the default order differs from sortField=lastupdated&sortOrder=DESC',
        received: a,
        expected: b,
        exchanges: [plain.res.exchange, asked.res.exchange],
      });
    const byField = await listCatalogue(ctx, cat, { sortField: 'lastupdated' });
    assertSortedBy(byField.own, 'lastupdated', 'DESC', byField.res, {
      requirements: ['SORT-003'],
      message: 'sortField=lastupdated without sortOrder is not DESC',
    });
  },
});
