import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { createItem, updateItem } from '../../support/items.ts';
import {
  assertSignedDelivery,
  callbackId,
  callbackItems,
  deliveryFailure,
  disposing,
  hookToken,
  waitForCallback,
} from '../../support/webhooks.ts';

const CHANGES = 5;
/** The first delivery's answer is held this long: the changes made meanwhile must wait for the next POST. Well under any sender's timeout (5 s). */
const HOLD_MS = 400;

export default defineCheck({
  id: 'webhooks.batching',
  title:
    'Changes made while a delivery is in flight arrive batched: one POST carries several items; several changes of one item collapse into its latest event',
  requirements: ['HOOK-007', 'DEC-HOOK-004'],
  tags: ['webhooks'],
  needs: ['webhook'],
  writes: `a token with a callBackUrl (deleted at once) and ${CHANGES + 2} events (soft-deleted)`,
  dependsOn: ['webhooks.delivery-signed'],
  run: async (ctx) => {
    const hook = await hookToken(ctx, 'batch');
    hook.endpoint.respondWith([{ status: 200, delayMs: HOLD_MS }]);
    await disposing([hook], async () => {
      const first = await createItem(
        ctx,
        '/events',
        { wfstatus: WORKFLOW_STATUS.approved },
        { label: 'hook-batch-first' },
      );
      await waitForCallback(ctx, hook, callbackId(first.id, '/events', 'UPDATED'), ['HOOK-007']);
      // While the receiver holds its answer: several new items, and one item changed twice.
      const started = Date.now();
      const [twice, ...others] = await Promise.all(
        Array.from({ length: CHANGES }, (_, i) =>
          createItem(ctx, '/events', { wfstatus: WORKFLOW_STATUS.approved }, { label: `hook-batch-${i}` }),
        ),
      );
      const put = await updateItem(ctx, twice!, {
        trcItemDetails: [{ lang: 'nl', title: `${twice!.trcid} changed again` }],
      });
      assertStatus(put, 200, { requirements: ['DEC-HOOK-004'] });
      put.assertConforms(['DEC-HOOK-004']);
      const elapsed = Date.now() - started;
      if (elapsed > HOLD_MS)
        ctx.note(`the ${CHANGES} writes took ${elapsed} ms, longer than the ${HOLD_MS} ms the first delivery was held`);

      const changed = [twice!, ...others];
      const arrivals = await Promise.all(
        changed.map((item) => waitForCallback(ctx, hook, callbackId(item.id, '/events', 'UPDATED'), ['HOOK-007'])),
      );
      const deliveries = [...new Map(arrivals.map((a) => [a.delivery.seq, a.delivery])).values()];
      for (const d of deliveries) assertSignedDelivery(ctx, d, hook.secret);
      const sizes = deliveries.map((d) => callbackItems(d).length);
      ctx.note(
        `${changed.length} changes made while a delivery was in flight arrived in ${deliveries.length} POST(s) of ${sizes.join(', ')} item(s)`,
      );
      if (!sizes.some((n) => n > 1)) {
        throw deliveryFailure(
          {
            message: `${changed.length} changes made while a delivery was in flight arrived in ${deliveries.length} POSTs of one item each: a delivery batches several items in one POST`,
            received: `${deliveries.length} POSTs of ${sizes.join(', ')} item(s)`,
            expected: 'at least one POST carrying several items',
            requirements: ['HOOK-007'],
          },
          deliveries.slice(0, 3),
        );
      }
      ctx.verified(['HOOK-007']);

      // DEC-HOOK-004: at most 100 items, and the item created and changed while waiting appears once.
      const big = deliveries.find((d) => callbackItems(d).length > 100);
      if (big)
        throw deliveryFailure(
          {
            message: 'a delivery carries more than 100 items',
            received: callbackItems(big).length,
            expected: 'at most 100',
            requirements: ['DEC-HOOK-004'],
          },
          [big],
        );
      const id = callbackId(twice!.id, '/events', 'UPDATED');
      const copies = hook.endpoint.deliveries.flatMap((d) => callbackItems(d)).filter((i) => i.id === id).length;
      if (copies !== 1) {
        throw new CheckFailure({
          message: `the item created and then changed while a delivery was in flight was delivered ${copies} times`,
          received: copies,
          expected: '1 (changes waiting for the same token collapse into the latest event)',
          requirements: ['DEC-HOOK-004'],
        });
      }
    });
  },
});
