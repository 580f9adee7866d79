import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { catalogue, catalogueEntries, listCatalogue } from '../../support/sharedItems.ts';
import { assertContainsAll, assertContainsNone } from '../../support/listAssertions.ts';

export default defineCheck({
  id: 'workflow.deleted-is-soft',
  title:
    'A deleted item is hidden from normal queries (a list without wfstatus, even for the full token) and still stored (wfstatus=deleted lists it); without wfstatus every other status the token may see is listed',
  requirements: ['WF-004', 'DEC-LIST-006'],
  tags: ['workflow'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue (nine event groups, one deleted, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const deleted = catalogueEntries(cat, WORKFLOW_STATUS.deleted);
    const normal = await listCatalogue(ctx, cat, { wfstatus: undefined });
    assertContainsNone(
      normal.items,
      deleted.map((e) => e.trcid),
      normal.res,
      {
        requirements: ['WF-004'],
        message: 'a list without wfstatus returns a deleted item (deleted items are hidden from normal queries)',
      },
    );
    const asked = await listCatalogue(ctx, cat, { wfstatus: WORKFLOW_STATUS.deleted });
    assertContainsAll(
      asked.own,
      deleted.map((e) => e.item),
      asked.res,
      {
        requirements: ['WF-004'],
        message: 'wfstatus=deleted does not list the deleted item (soft-deleted items are still stored)',
      },
    );
    ctx.verified(['WF-004']);
    assertContainsAll(
      normal.own,
      cat.entries.filter((e) => e.status !== WORKFLOW_STATUS.deleted).map((e) => e.item),
      normal.res,
      {
        requirements: ['DEC-LIST-006'],
        message: 'a list without wfstatus leaves out statuses other than deleted that the token may see',
      },
    );
  },
});
