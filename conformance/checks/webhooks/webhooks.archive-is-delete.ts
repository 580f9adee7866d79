import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckUnobservable } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { canReachStatus, createItem, updateItem } from '../../support/items.ts';
import type { Delivery } from '../../receiver/receiver.ts';
import {
  callbackId,
  callbackItems,
  deliveryFailure,
  disposing,
  hookToken,
  timing,
  waitForCallback,
} from '../../support/webhooks.ts';

export default defineCheck({
  id: 'webhooks.archive-is-delete',
  title: 'Archiving an item is a delete for webhooks: <Type>Deleted with actionType DELETED',
  requirements: ['DEC-HOOK-003'],
  tags: ['webhooks'],
  needs: ['webhook'],
  writes: 'a token with a callBackUrl (deleted at once) and one event (archived, then soft-deleted)',
  dependsOn: ['webhooks.event-types'],
  run: async (ctx) => {
    if (!canReachStatus(ctx, WORKFLOW_STATUS.archived))
      throw new CheckUnobservable(
        'the target moves no item into archived through the API (the interface leaves it open)',
      );
    const hook = await hookToken(ctx, 'archive');
    await disposing([hook], async () => {
      const event = await createItem(ctx, '/events', { wfstatus: WORKFLOW_STATUS.approved }, { label: 'hook-archive' });
      const { delivery: created } = await waitForCallback(ctx, hook, callbackId(event.id, '/events', 'UPDATED'));
      const res = await updateItem(ctx, event, { wfstatus: WORKFLOW_STATUS.archived });
      assertStatus(res, 200, {
        message: `PUT ${new URL(res.url).pathname} with wfstatus archived answered ${res.status}`,
      });
      res.assertConforms();
      const deleted = callbackId(event.id, '/events', 'DELETED');
      const mentions = (d: Delivery) => callbackItems(d).find((i) => i.id.startsWith(`${event.id}_`));
      const arrived = await hook.endpoint.waitFor(
        (d) => d.seq > created.seq && mentions(d) !== undefined,
        timing(ctx).waitMs,
        `delivery after archiving ${event.id}`,
      );
      const item = mentions(arrived)!;
      if (item.id !== deleted || item.actionType !== 'DELETED') {
        throw deliveryFailure(
          {
            message: 'archiving the item was delivered as an update',
            received: `${item.id} (${item.actionType})`,
            expected: `${deleted} (DELETED)`,
          },
          [arrived],
        );
      }
    });
  },
});
