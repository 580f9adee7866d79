import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem } from '../../support/items.ts';
import { tokensPath } from '../../support/tokens.ts';
import {
  attemptsOf,
  callbackId,
  callbackItems,
  deliveryFailure,
  disposing,
  hookToken,
  timing,
  waitForCallback,
} from '../../support/webhooks.ts';

export default defineCheck({
  id: 'retries.permanent',
  title:
    'A 4xx answer (400, 410) is permanent: the delivery is never retried; nor is a redirect, which is not followed; deleting a token drops its pending retries',
  requirements: ['HOOK-020', 'DEC-HOOK-006', 'DEC-HOOK-011', 'DEC-HOOK-010'],
  tags: ['webhooks', 'retries'],
  needs: ['webhook'],
  writes: 'four tokens with a callBackUrl (deleted at once) and one event (soft-deleted)',
  dependsOn: ['webhooks.delivery-signed'],
  run: async (ctx) => {
    const { quietMs } = timing(ctx);
    const badRequest = await hookToken(ctx, '400');
    const gone = await hookToken(ctx, '410');
    const redirect = await hookToken(ctx, '302');
    const doomed = await hookToken(ctx, 'deleted');
    const elsewhere = ctx.receiver.endpoint(`${ctx.check.id}.redirect-target`);
    // Refused with a 500 (a retry is due), and the token deleted while that answer is held.
    doomed.endpoint.respondWith([{ status: 500, delayMs: 300 }]);
    badRequest.endpoint.respondWith([400]);
    gone.endpoint.respondWith([410]);
    redirect.endpoint.respondWith([{ status: 302, headers: { location: elsewhere.url } }]);

    await disposing([badRequest, gone, redirect, doomed], async () => {
      const event = await createItem(
        ctx,
        '/events',
        { wfstatus: WORKFLOW_STATUS.approved },
        { label: 'hook-permanent' },
      );
      const id = callbackId(event.id, '/events', 'UPDATED');
      const doomedFirst = waitForCallback(ctx, doomed, id).then(async (first) => {
        await doomed.dispose();
        return first;
      });
      const cases = [
        { hook: badRequest, status: '400', requirement: 'HOOK-020' },
        { hook: gone, status: '410', requirement: 'HOOK-020' },
        { hook: redirect, status: '302', requirement: 'DEC-HOOK-006' },
      ];
      const firsts = await Promise.all(cases.map((c) => waitForCallback(ctx, c.hook, id, [c.requirement])));
      const dropped = await doomedFirst;
      // On a real deployment a (wrong) retry would come about 5 s after the failure: --webhook-quiet.
      await Promise.all([...cases, { hook: doomed }].map((c) => c.hook.endpoint.expectNone(quietMs, () => false)));
      for (const [i, c] of cases.entries()) {
        const deliveryId = firsts[i]!.delivery.headers['x-service-delivery'] ?? '';
        const again = c.hook.endpoint.deliveries.filter(
          (d) =>
            d.seq > firsts[i]!.delivery.seq &&
            (d.headers['x-service-delivery'] === deliveryId || callbackItems(d).some((x) => x.id === id)),
        );
        if (again.length > 0) {
          throw deliveryFailure(
            {
              message: `the receiver answered ${c.status}, a permanent failure, yet the delivery was sent again`,
              received: `${again.length + 1} attempts`,
              expected: `one attempt within ${quietMs} ms (--webhook-quiet)`,
              requirements: [c.requirement],
            },
            attemptsOf(c.hook.endpoint, deliveryId),
          );
        }
      }
      ctx.verified(['HOOK-020']);
      if (elsewhere.deliveries.length > 0) {
        throw deliveryFailure(
          {
            message: "the sender followed the receiver's redirect",
            received: elsewhere.deliveries[0]!.path,
            expected: 'redirects are never followed',
            requirements: ['DEC-HOOK-006'],
          },
          elsewhere.deliveries.slice(0, 1),
        );
      }
      // DEC-HOOK-010: the deleted token's retry was dropped.
      const retried = doomed.endpoint.deliveries.filter((d) => d.seq > dropped.delivery.seq);
      if (retried.length > 0) {
        throw deliveryFailure(
          {
            message: 'a delivery of a deleted token was retried',
            received: `${retried.length + 1} attempts`,
            expected: 'no attempt after the token was deleted',
            requirements: ['DEC-HOOK-010'],
          },
          [dropped.delivery, ...retried],
        );
      }
      // DEC-HOOK-011: the log shows the 400 as a failed delivery with one permanent attempt.
      const log = await ctx.http.get(tokensPath(ctx, badRequest.id, '/deliveries'), {
        token: 'admin',
        validate: 'defer',
      });
      const entry = Array.isArray(log.body)
        ? (log.body as { id?: string; state?: string; attempts?: { outcome?: string; status?: number }[] }[]).find(
            (d) => d.id === firsts[0]!.delivery.headers['x-service-delivery'],
          )
        : undefined;
      if (
        log.status !== 200 ||
        entry?.state !== 'failed' ||
        entry.attempts?.length !== 1 ||
        entry.attempts[0]?.outcome !== 'permanent' ||
        entry.attempts[0]?.status !== 400
      ) {
        throw new CheckFailure({
          message: 'the delivery log does not show the delivery refused with 400 as failed after one permanent attempt',
          received: log.status === 200 ? (entry ?? '(not listed)') : log.status,
          expected: { state: 'failed', attempts: [{ status: 400, outcome: 'permanent' }] },
          requirements: ['DEC-HOOK-011'],
          exchanges: [log.exchange],
        });
      }
      log.assertConforms(['DEC-HOOK-011']);
    });
  },
});
