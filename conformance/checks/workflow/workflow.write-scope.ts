import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { assertStatus } from '../../support/assert.ts';
import { createItem, updateItem } from '../../support/items.ts';

export default defineCheck({
  id: 'workflow.write-scope',
  title:
    "PUT and DELETE use the caller's read scope: a live token's PUT or DELETE of a rejected item is a 404, DELETE of a deleted item is a 404",
  requirements: ['DEC-ITEM-029'],
  tags: ['workflow', 'scope', 'decision'],
  needs: ['write', 'full', 'consumer'],
  writes: 'one rejected and one deleted event (tagged with the run id)',
  run: async (ctx) => {
    const rejected = await createItem(ctx, '/events', { wfstatus: WORKFLOW_STATUS.rejected }, { label: 'write-scope' });
    const put = await updateItem(ctx, rejected, { wfstatus: WORKFLOW_STATUS.approved }, { token: 'consumer' });
    assertStatus(put, 404, { message: `a live token's PUT of a rejected item answered ${put.status}` });
    put.assertConforms();
    const del = await ctx.http.delete(rejected.path, { token: 'consumer', validate: 'defer' });
    assertStatus(del, 404, { message: `a live token's DELETE of a rejected item answered ${del.status}` });
    del.assertConforms();
    const deleted = await createItem(ctx, '/events', { wfstatus: WORKFLOW_STATUS.deleted }, { label: 'write-scope' });
    const again = await ctx.http.delete(deleted.path, { token: deleted.token, validate: 'defer' });
    assertStatus(again, 404, { message: `DELETE of a deleted item answered ${again.status}` });
    again.assertConforms();
  },
});
