import { defineCheck } from '../../model/check.ts';
import { catalogue, listCatalogue } from '../../support/sharedItems.ts';
import { WF_STATUSES } from '../../support/itemTypes.ts';
import { assertContainsAll, assertContainsNone, assertEveryItemSatisfies } from '../../support/listAssertions.ts';

const shift = (stamp: string, ms: number) => new Date(Date.parse(stamp) + ms).toISOString();

export default defineCheck({
  id: 'filters.lastupdated-inclusive',
  title:
    "lastupdated=<an item's own lastupdated> returns that item (>=, inclusive); 1 ms later it does not, 1 ms earlier it does; nothing returned is older than the bound",
  requirements: ['FILTER-001'],
  tags: ['filters', 'sync'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue (nine event groups, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const { own: everything } = await listCatalogue(ctx, cat, { sortField: 'lastupdated', sortOrder: 'ASC' });
    const middle = everything[Math.floor(everything.length / 2)]!;
    const stamp = String(middle.lastupdated);
    const at = await listCatalogue(ctx, cat, { lastupdated: stamp });
    assertEveryItemSatisfies(at.items, { lastupdated: stamp, wfstatus: [...WF_STATUSES] }, at.res);
    assertContainsAll(at.items, [middle], at.res, {
      message: `lastupdated=${stamp} does not return the item whose lastupdated is exactly ${stamp}; the filter must be inclusive (>=)`,
    });
    const later = await listCatalogue(ctx, cat, { lastupdated: shift(stamp, 1) });
    assertEveryItemSatisfies(later.items, { lastupdated: shift(stamp, 1), wfstatus: [...WF_STATUSES] }, later.res);
    assertContainsNone(later.items, [String(middle.trcid)], later.res, {
      message: `lastupdated=${shift(stamp, 1)} returns an item last updated 1 ms earlier (${stamp})`,
    });
    const earlier = await listCatalogue(ctx, cat, { lastupdated: shift(stamp, -1) });
    assertContainsAll(earlier.items, [middle], earlier.res, {
      message: `lastupdated=${shift(stamp, -1)} does not return an item last updated 1 ms later`,
    });
  },
});
