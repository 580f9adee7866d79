import { defineCheck } from '../../model/check.ts';
import { createItem } from '../../support/items.ts';
import { attemptsOf, callbackId, callbackItems, deliveryFailure, disposing, hookToken, timing, waitForCallback } from '../../support/webhooks.ts';

export default defineCheck({
  id: 'retries.permanent',
  title: 'A 4xx answer (400, 410) is permanent: the delivery is never retried; nor is a redirect, which is not followed',
  requirements: ['HOOK-020', 'DEC-HOOK-006'],
  tags: ['webhooks', 'retries'],
  needs: ['webhook'],
  writes: 'three tokens with a callBackUrl (deleted at once) and one event (soft-deleted)',
  dependsOn: ['webhooks.delivery-signed'],
  run: async (ctx) => {
    const { quietMs } = timing(ctx);
    const badRequest = await hookToken(ctx, '400');
    const gone = await hookToken(ctx, '410');
    const redirect = await hookToken(ctx, '302');
    const elsewhere = ctx.receiver.endpoint(`${ctx.check.id}.redirect-target`);
    badRequest.endpoint.respondWith([400]);
    gone.endpoint.respondWith([410]);
    redirect.endpoint.respondWith([{ status: 302, headers: { location: elsewhere.url } }]);

    await disposing([badRequest, gone, redirect], async () => {
      const event = await createItem(ctx, '/events', { wfstatus: 'approved' }, { label: 'hook-permanent' });
      const id = callbackId(event.id, '/events', 'UPDATED');
      const cases = [
        { hook: badRequest, status: '400', requirement: 'HOOK-020' },
        { hook: gone, status: '410', requirement: 'HOOK-020' },
        { hook: redirect, status: '302', requirement: 'DEC-HOOK-006' },
      ];
      const firsts = await Promise.all(cases.map((c) => waitForCallback(ctx, c.hook, id, [c.requirement])));
      // On a real deployment a (wrong) retry would come about 5 s after the failure: --webhook-quiet.
      await Promise.all(cases.map((c) => c.hook.endpoint.expectNone(quietMs, () => false)));
      for (const [i, c] of cases.entries()) {
        const deliveryId = firsts[i]!.delivery.headers['x-service-delivery'] ?? '';
        const again = c.hook.endpoint.deliveries.filter((d) => d.seq > firsts[i]!.delivery.seq && (d.headers['x-service-delivery'] === deliveryId || callbackItems(d).some((x) => x.id === id)));
        if (again.length > 0) {
          throw deliveryFailure({ message: `the receiver answered ${c.status}, a permanent failure, yet the delivery was sent again`, received: `${again.length + 1} attempts`, expected: `one attempt within ${quietMs} ms (--webhook-quiet)`, requirements: [c.requirement] }, attemptsOf(c.hook.endpoint, deliveryId));
        }
      }
      ctx.verified(['HOOK-020']);
      if (elsewhere.deliveries.length > 0) {
        throw deliveryFailure({ message: 'the sender followed the receiver\'s redirect', received: elsewhere.deliveries[0]!.path, expected: 'redirects are never followed', requirements: ['DEC-HOOK-006'] }, elsewhere.deliveries.slice(0, 1));
      }
    });
  },
});
