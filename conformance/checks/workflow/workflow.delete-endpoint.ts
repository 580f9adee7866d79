import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem, findByTrcid } from '../../support/items.ts';
import { assertStatus } from '../../support/assert.ts';

export default defineCheck({
  id: 'workflow.delete-endpoint',
  title:
    'DELETE on the detail URL answers 204 and soft-deletes: wfstatus becomes deleted, the item is still listed with wfstatus=deleted, and its detail read answers 404 for every token',
  requirements: ['DEC-ITEM-003', 'DEC-ITEM-004'],
  tags: ['workflow', 'decision'],
  needs: ['write', 'full'],
  writes: 'one event, deleted by the check (tagged with the run id)',
  run: async (ctx) => {
    const event = await createItem(ctx, '/events', { wfstatus: WORKFLOW_STATUS.approved }, { label: 'delete' });
    const del = await ctx.http.delete(event.path, { token: event.token, validate: 'defer' });
    assertStatus(del, 204, { requirements: ['DEC-ITEM-003'] });
    del.assertConforms(['DEC-ITEM-003']);
    const listed = await findByTrcid(ctx, '/events', event.trcid, event.token);
    if (listed?.wfstatus !== WORKFLOW_STATUS.deleted)
      throw new CheckFailure({
        message: `after DELETE ${event.path} the item is not listed with wfstatus deleted`,
        received: listed?.wfstatus ?? '(absent)',
        expected: WORKFLOW_STATUS.deleted,
        requirements: ['DEC-ITEM-003'],
        exchanges: [del.exchange],
      });
    ctx.verified(['DEC-ITEM-003']);
    for (const token of ['consumer', event.token] as const) {
      if (token === 'consumer' && !ctx.tokens.consumer) continue;
      const res = await ctx.http.get(event.path, { token, validate: 'defer' });
      assertStatus(res, 404, {
        requirements: ['DEC-ITEM-004'],
        message: `a detail read of a deleted item (${typeof token === 'string' ? token : 'writer'} token) answered ${res.status}`,
      });
      res.assertConforms(['DEC-ITEM-004']);
    }
  },
});
