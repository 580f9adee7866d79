import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { createItem } from '../../support/items.ts';
import {
  assertTokenAnswerConforms,
  deleteTokenQuietly,
  mintToken,
  rotateSecret,
  tokenAnswer,
} from '../../support/tokens.ts';
import {
  attemptsOf,
  callbackId,
  deliveryFailure,
  disposing,
  hookToken,
  timing,
  verifiesWith,
  waitForCallback,
} from '../../support/webhooks.ts';

export default defineCheck({
  id: 'tokens.rotate-secret',
  title:
    'rotate-secret returns a new signingSecret once; from then on deliveries, retries of older ones too, verify only with it; without a callBackUrl it is refused',
  requirements: ['TOKEN-010', 'TOKEN-011', 'TOKEN-002'],
  tags: ['tokens', 'webhooks'],
  needs: ['webhook'],
  writes: 'two tokens (deleted at once) and two events (soft-deleted)',
  dependsOn: ['tokens.create', 'webhooks.delivery-signed'],
  run: async (ctx) => {
    const hook = await hookToken(ctx, 'rotate');
    const old = hook.secret;
    // The first delivery is held 300 ms and then refused with a 500, so its retry is signed after the rotation.
    hook.endpoint.respondWith([{ status: 500, delayMs: 300 }]);
    hook.endpoint.setSecret(undefined);

    await disposing([hook], async () => {
      const before = await createItem(
        ctx,
        '/events',
        { wfstatus: WORKFLOW_STATUS.approved },
        { label: 'hook-rotate-before' },
      );
      const { delivery: first } = await waitForCallback(ctx, hook, callbackId(before.id, '/events', 'UPDATED'), [
        'TOKEN-010',
      ]);

      const res = await rotateSecret(ctx, hook.id);
      assertStatus(res, 200, { requirements: ['TOKEN-010'] });
      assertTokenAnswerConforms(res, ['TOKEN-010']);
      const answer = tokenAnswer(res, ['TOKEN-010']);
      const fresh = answer.signingSecret;
      if (typeof fresh !== 'string' || fresh === '' || fresh === old) {
        throw new CheckFailure({
          message: 'rotate-secret did not answer a new signingSecret',
          received: fresh === old ? 'the old secret' : (fresh ?? '(absent)'),
          expected: 'a new signingSecret',
          pointer: '/signingSecret',
          requirements: ['TOKEN-010'],
          exchanges: [res.exchange],
        });
      }
      if (!verifiesWith(first, old)) {
        throw deliveryFailure(
          {
            message: 'the delivery made before the rotation does not verify with the secret of that time',
            received: first.headers['x-service-signature'],
            expected: "a signature made with the token's secret",
            requirements: ['TOKEN-010'],
          },
          [first],
        );
      }

      // A new change after the rotation: only the new secret verifies.
      const after = await createItem(
        ctx,
        '/events',
        { wfstatus: WORKFLOW_STATUS.approved },
        { label: 'hook-rotate-after' },
      );
      const { delivery: next } = await waitForCallback(ctx, hook, callbackId(after.id, '/events', 'UPDATED'), [
        'TOKEN-010',
      ]);
      if (!verifiesWith(next, fresh) || verifiesWith(next, old)) {
        throw deliveryFailure(
          {
            message: `after rotate-secret a delivery ${verifiesWith(next, old) ? 'still verifies with the old secret' : 'does not verify with the new secret'}`,
            received: next.headers['x-service-signature'],
            expected: 'a signature made with the new secret only',
            requirements: ['TOKEN-010'],
          },
          [next],
        );
      }

      // The retry of the delivery refused before the rotation: signed afresh, with the new secret.
      const id = first.headers['x-service-delivery'] ?? '';
      const retry = await hook.endpoint
        .waitFor(
          (d) => d !== first && d.headers['x-service-delivery'] === id,
          timing(ctx).waitMs,
          `retry of delivery ${id}`,
        )
        .catch(() => undefined);
      if (!retry) {
        ctx.note(
          `the delivery refused with a 500 before the rotation was not retried within ${timing(ctx).waitMs} ms (--webhook-wait); retries are checked by retries.transient`,
        );
      } else if (!verifiesWith(retry, fresh) || verifiesWith(retry, old)) {
        throw deliveryFailure(
          {
            message: `the retry of a delivery made before rotate-secret ${verifiesWith(retry, old) ? 'still verifies with the old secret: it stopped verifying "at once" for new deliveries only' : 'does not verify with the new secret'}`,
            received: retry.headers['x-service-signature'],
            expected: 'a signature made with the new secret only',
            requirements: ['TOKEN-010'],
          },
          attemptsOf(hook.endpoint, id),
        );
      }
    });
    ctx.verified(['TOKEN-010', 'TOKEN-002']);

    // Without a callBackUrl there is nothing to sign for.
    const bare = await mintToken(ctx, {}, { requirements: ['TOKEN-011'] });
    try {
      const refused = await rotateSecret(ctx, bare.id);
      if (refused.status < 400 || refused.status >= 500) {
        throw new CheckFailure({
          message: `rotate-secret on a token without callBackUrl answered ${refused.status}`,
          received: refused.status,
          expected: 'a 4xx (it requires a callBackUrl)',
          pointer: 'status',
          requirements: ['TOKEN-011'],
          exchanges: [refused.exchange],
        });
      }
      refused.assertConforms(['TOKEN-011']);
    } finally {
      await deleteTokenQuietly(ctx, bare.id);
    }
  },
});
