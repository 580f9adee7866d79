import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { createItem, readItem, updateItem } from '../../support/items.ts';
import { assertStatus } from '../../support/assert.ts';
import { assertBooleansFollowWfstatus } from '../../support/listAssertions.ts';

export default defineCheck({
  id: 'workflow.wrong-booleans',
  title:
    'published/deleted/offline written against wfstatus are overwritten on save: a rejected item sent as published, an approved one sent as deleted and offline (on create and on update)',
  requirements: ['WF-013', 'WF-010', 'WF-011', 'DEC-ITEM-001'],
  tags: ['workflow'],
  needs: ['write', 'full'],
  writes: 'two events (tagged with the run id)',
  run: async (ctx) => {
    const rejected = await createItem(
      ctx,
      '/events',
      { wfstatus: WORKFLOW_STATUS.rejected, published: true, deleted: false, offline: false },
      { label: 'wrong-booleans', requirements: ['WF-013'] },
    );
    assertBooleansFollowWfstatus(rejected.item, rejected.created, { requirements: ['WF-013', 'WF-010'] });
    const approved = await createItem(
      ctx,
      '/events',
      { wfstatus: WORKFLOW_STATUS.approved, published: false, deleted: true, offline: true },
      { label: 'wrong-booleans', requirements: ['WF-013'] },
    );
    assertBooleansFollowWfstatus(approved.item, approved.created, { requirements: ['WF-013', 'WF-010'] });
    ctx.verified(['WF-010', 'WF-011']);
    // On update: what was written, with only the booleans flipped.
    const put = await updateItem(ctx, approved, {
      wfstatus: WORKFLOW_STATUS.approved,
      published: false,
      deleted: true,
      offline: true,
    });
    assertStatus(put, 200, { requirements: ['DEC-ITEM-001'] });
    put.assertConforms(['DEC-ITEM-001']);
    const { res, item } = await readItem(ctx, approved.path, approved.token);
    assertStatus(res, 200, { requirements: ['WF-013'] });
    res.assertConforms(['WF-013']);
    assertBooleansFollowWfstatus(item!, res, {
      requirements: ['WF-013'],
      message: `${approved.path}: after a PUT with wrong booleans they no longer follow wfstatus approved`,
    });
  },
});
