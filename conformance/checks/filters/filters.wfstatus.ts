import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { catalogue, listCatalogue, unplacedStatuses } from '../../support/sharedItems.ts';
import { WF_STATUSES } from '../../support/itemTypes.ts';
import { assertContainsAll, assertEveryItemSatisfies } from '../../support/listAssertions.ts';

const SETS = [
  ...WF_STATUSES.map((s) => [s]),
  [WORKFLOW_STATUS.approved, WORKFLOW_STATUS.archived, WORKFLOW_STATUS.deleted],
  [WORKFLOW_STATUS.readyforvalidation, WORKFLOW_STATUS.rejected],
];

export default defineCheck({
  id: 'filters.wfstatus',
  title:
    "wfstatus with one status or a comma-separated list returns exactly the suite's items in those statuses (full token)",
  requirements: ['FILTER-002'],
  tags: ['filters'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue (nine event groups in every status, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    for (const set of SETS) {
      const { items, own, res } = await listCatalogue(ctx, cat, { wfstatus: set.join(',') });
      assertEveryItemSatisfies(items, { wfstatus: set }, res);
      assertContainsAll(
        own,
        cat.entries.filter((e) => set.includes(e.status)).map((e) => e.item),
        res,
      );
    }
    // An empty answer for a status no item could be put in proves nothing about selecting it.
    const unplaced = unplacedStatuses(cat, WF_STATUSES);
    if (unplaced.length > 0)
      ctx.unobservable(
        ['FILTER-002'],
        `the target moves no item into ${unplaced.join(', ')} through the API (the interface leaves those moves open), so whether wfstatus selects such items cannot be observed here`,
      );
  },
});
