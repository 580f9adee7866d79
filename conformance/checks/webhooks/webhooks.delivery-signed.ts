import { defineCheck } from '../../model/check.ts';
import { createItem } from '../../support/items.ts';
import { assertSignedDelivery, callbackId, disposing, hookToken, waitForCallback } from '../../support/webhooks.ts';

export default defineCheck({
  id: 'webhooks.delivery-signed',
  title: 'A change is POSTed to the token\'s callBackUrl with X-Service-Timestamp, -Signature and -Delivery, signed over "<timestamp>.<raw body>", with a CallbackBody',
  requirements: ['HOOK-002', 'HOOK-010', 'HOOK-011', 'HOOK-012', 'HOOK-013', 'AUTH-009', 'HOOK-001'],
  tags: ['webhooks'],
  needs: ['webhook'],
  writes: 'a token with a callBackUrl (deleted at once) and one event (soft-deleted)',
  dependsOn: ['tokens.create'],
  run: async (ctx) => {
    const hook = await hookToken(ctx, 'signed');
    await disposing([hook], async () => {
      const event = await createItem(ctx, '/events', { wfstatus: 'approved' }, { label: 'hook-signed' });
      const { delivery } = await waitForCallback(ctx, hook, callbackId(event.id, '/events', 'UPDATED'), ['HOOK-002']);
      assertSignedDelivery(ctx, delivery, hook.secret);
    });
  },
});
