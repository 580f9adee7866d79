import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { catalogue, listCatalogue } from '../../support/sharedItems.ts';
import { WF_STATUSES } from '../../support/itemTypes.ts';
import { assertContainsAll, assertEveryItemSatisfies } from '../../support/listAssertions.ts';

export default defineCheck({
  id: 'filters.published',
  title:
    "published=true returns the approved items (all of the suite's, nothing else); published=false the items of every other status",
  requirements: ['FILTER-003', 'DEC-LIST-007'],
  tags: ['filters'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue (nine event groups in every status, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const yes = await listCatalogue(ctx, cat, { published: true });
    assertEveryItemSatisfies(yes.items, { published: true, wfstatus: [...WF_STATUSES] }, yes.res);
    assertContainsAll(
      yes.own,
      cat.entries.filter((e) => e.status === WORKFLOW_STATUS.approved).map((e) => e.item),
      yes.res,
      { requirements: ['FILTER-003'] },
    );
    ctx.verified(['FILTER-003']);
    const no = await listCatalogue(ctx, cat, { published: false }, { requirements: ['DEC-LIST-007'] });
    assertEveryItemSatisfies(no.items, { published: false, wfstatus: [...WF_STATUSES] }, no.res, {
      requirements: ['DEC-LIST-007'],
    });
    assertContainsAll(
      no.own,
      cat.entries.filter((e) => e.status !== WORKFLOW_STATUS.approved).map((e) => e.item),
      no.res,
      { requirements: ['DEC-LIST-007'] },
    );
  },
});
