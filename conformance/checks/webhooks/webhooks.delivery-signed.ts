import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { createItem } from '../../support/items.ts';
import {
  assertSignatureBindsBodyAndTimestamp,
  assertSignedDelivery,
  callbackId,
  disposing,
  hookToken,
  waitForCallback,
} from '../../support/webhooks.ts';

/** The property makes no request: more runs than --num-runs cost microseconds. */
const MIN_RUNS = 200;

export default defineCheck({
  id: 'webhooks.delivery-signed',
  title:
    'A change is POSTed to the token\'s callBackUrl with X-Service-Timestamp, -Signature and -Delivery, signed over "<timestamp>.<raw body>" (property: any changed byte of body or timestamp fails), with a CallbackBody',
  requirements: ['HOOK-002', 'HOOK-010', 'HOOK-011', 'HOOK-012', 'HOOK-013', 'AUTH-009', 'HOOK-001'],
  tags: ['webhooks', 'property'],
  needs: ['webhook'],
  writes: 'a token with a callBackUrl (deleted at once) and one event (soft-deleted)',
  dependsOn: ['tokens.create'],
  run: async (ctx) => {
    const hook = await hookToken(ctx, 'signed');
    await disposing([hook], async () => {
      const event = await createItem(ctx, '/events', { wfstatus: WORKFLOW_STATUS.approved }, { label: 'hook-signed' });
      const { delivery } = await waitForCallback(ctx, hook, callbackId(event.id, '/events', 'UPDATED'), ['HOOK-002']);
      assertSignedDelivery(ctx, delivery, hook.secret);
      await assertSignatureBindsBodyAndTimestamp(ctx, delivery, hook.secret, {
        numRuns: Math.max(ctx.fc.numRuns, MIN_RUNS),
      });
    });
  },
});
