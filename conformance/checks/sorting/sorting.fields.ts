import { defineCheck } from '../../model/check.ts';
import { catalogue, listCatalogue } from '../../support/sharedItems.ts';
import { assertSortedBy } from '../../support/listAssertions.ts';

const FIELDS = ['lastupdated', 'creationdate', 'title', 'trcid', 'slug'] as const;

export default defineCheck({
  id: 'sorting.fields',
  title:
    "sortField lastupdated, creationdate, title, trcid and slug with sortOrder ASC and DESC order the suite's items by that field",
  requirements: ['SORT-001', 'SORT-003'],
  tags: ['sorting'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue (nine event groups, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    for (const field of FIELDS) {
      for (const order of ['ASC', 'DESC'] as const) {
        const { own, res } = await listCatalogue(ctx, cat, { sortField: field, sortOrder: order });
        assertSortedBy(own, field, order, res, { requirements: ['SORT-001', 'SORT-003'] });
      }
    }
  },
});
