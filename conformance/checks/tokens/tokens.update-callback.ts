import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import type { HttpResponse } from '../../http/httpClient.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { createItem } from '../../support/items.ts';
import {
  assertTokenAnswerConforms,
  deleteTokenQuietly,
  mintToken,
  tokenAnswer,
  updateToken,
} from '../../support/tokens.ts';
import type { TokenAnswer } from '../../support/tokens.ts';
import {
  callbackId,
  deliveryFailure,
  disposing,
  holds,
  hookToken,
  timing,
  verifiesWith,
  waitForCallback,
} from '../../support/webhooks.ts';

function answered(res: HttpResponse, requirements: readonly string[]): TokenAnswer {
  assertStatus(res, 200, { requirements });
  assertTokenAnswerConforms(res, requirements);
  return tokenAnswer(res, requirements);
}

function expectMember(
  res: HttpResponse,
  answer: TokenAnswer,
  member: string,
  ok: (v: unknown) => boolean,
  expected: string,
  requirements: readonly string[],
  why: string,
): void {
  const value = answer[member];
  if (ok(value)) return;
  throw new CheckFailure({
    message: why,
    received: value === undefined ? '(absent)' : value,
    expected,
    pointer: `/${member}`,
    requirements,
    exchanges: [res.exchange],
  });
}

const noCallback = (v: unknown) => v === undefined || v === null || v === '';

export default defineCheck({
  id: 'tokens.update-callback',
  title:
    'PUT of a token: callBackUrl omitted keeps the webhook, a new URL moves it and keeps the secret, "" removes webhook and secret, a URL on a token without one creates a secret returned once',
  requirements: ['TOKEN-004', 'TOKEN-006', 'TOKEN-007', 'TOKEN-005', 'TOKEN-008', 'TOKEN-002'],
  tags: ['tokens', 'webhooks'],
  needs: ['webhook'],
  writes: 'three tokens (deleted at once) and three events (soft-deleted)',
  dependsOn: ['tokens.create', 'webhooks.delivery-signed'],
  run: async (ctx) => {
    const first = ctx.receiver.endpoint(`${ctx.check.id}.first`);
    const moved = ctx.receiver.endpoint(`${ctx.check.id}.moved`);
    const again = ctx.receiver.endpoint(`${ctx.check.id}.again`);
    const token = await mintToken(ctx, { callBackUrl: first.url }, { requirements: ['TOKEN-004'] });
    const control = await hookToken(ctx, 'control');
    if (!token.secret)
      throw new CheckFailure({
        message: 'the token created with a callBackUrl has no signingSecret',
        received: '(absent)',
        expected: 'a signingSecret',
        pointer: '/signingSecret',
        requirements: ['TOKEN-002'],
        exchanges: [token.response.exchange],
      });
    const original = token.secret;
    const dispose = { dispose: () => deleteTokenQuietly(ctx, token.id) };

    await disposing([control, dispose], async () => {
      // 1. callBackUrl omitted: the webhook is unchanged, and no secret is shown.
      const renamed = await updateToken(ctx, token.id, { name: ctx.tag('renamed token') });
      const a1 = answered(renamed, ['TOKEN-004']);
      expectMember(
        renamed,
        a1,
        'callBackUrl',
        (v) => v === first.url,
        first.url,
        ['TOKEN-004'],
        'a PUT without callBackUrl changed the webhook',
      );
      expectMember(
        renamed,
        a1,
        'signingSecret',
        (v) => v === undefined,
        'no signingSecret',
        ['TOKEN-002'],
        'a PUT that created no secret showed a signingSecret',
      );

      // 2. A new URL: registered, the secret kept (proved by a delivery there that verifies with it).
      const move = await updateToken(ctx, token.id, { callBackUrl: moved.url });
      const a2 = answered(move, ['TOKEN-006']);
      expectMember(
        move,
        a2,
        'callBackUrl',
        (v) => v === moved.url,
        moved.url,
        ['TOKEN-006'],
        'the PUT answer does not show the new callBackUrl',
      );
      expectMember(
        move,
        a2,
        'signingSecret',
        (v) => v === undefined,
        'no signingSecret (changing the URL keeps the secret)',
        ['TOKEN-007', 'TOKEN-002'],
        'changing the callBackUrl answered a signingSecret: the secret must be kept, not replaced',
      );
      const e1 = await createItem(ctx, '/events', { wfstatus: WORKFLOW_STATUS.approved }, { label: 'hook-moved' });
      const { delivery: atMoved } = await waitForCallback(
        ctx,
        { endpoint: moved },
        callbackId(e1.id, '/events', 'UPDATED'),
        ['TOKEN-006'],
      );
      if (!verifiesWith(atMoved, original)) {
        throw deliveryFailure(
          {
            message:
              "after the callBackUrl changed, the delivery at the new URL does not verify with the token's original signingSecret",
            received: atMoved.headers['x-service-signature'],
            expected: 'a signature made with the kept secret',
            requirements: ['TOKEN-007'],
          },
          [atMoved],
        );
      }
      if (first.deliveries.some(holds(callbackId(e1.id, '/events', 'UPDATED')))) {
        throw deliveryFailure(
          {
            message: 'after the callBackUrl changed, the old URL still got the delivery',
            received: first.url,
            expected: moved.url,
            requirements: ['TOKEN-006'],
          },
          first.deliveries.slice(-1),
        );
      }
      ctx.verified(['TOKEN-004', 'TOKEN-006', 'TOKEN-007']);

      // 3. "" removes the webhook and its secret: a change reaches the control token, not this one.
      const remove = await updateToken(ctx, token.id, { callBackUrl: '' });
      const a3 = answered(remove, ['TOKEN-005']);
      expectMember(
        remove,
        a3,
        'callBackUrl',
        noCallback,
        'no callBackUrl',
        ['TOKEN-005'],
        'callBackUrl "" did not remove the webhook',
      );
      expectMember(
        remove,
        a3,
        'signingSecret',
        (v) => v === undefined,
        'no signingSecret',
        ['TOKEN-002'],
        'removing the webhook showed a signingSecret',
      );
      const e2 = await createItem(ctx, '/events', { wfstatus: WORKFLOW_STATUS.approved }, { label: 'hook-removed' });
      await waitForCallback(ctx, control, callbackId(e2.id, '/events', 'UPDATED'));
      await moved
        .expectNone(
          timing(ctx).quietMs,
          holds(callbackId(e2.id, '/events', 'UPDATED')),
          `delivery of ${e2.id} after the webhook was removed`,
        )
        .catch((error: unknown) => {
          throw error instanceof CheckFailure
            ? new CheckFailure({
                message: error.message,
                received: error.received,
                expected: error.expected,
                requirements: ['TOKEN-005'],
              })
            : error;
        });

      // 4. A URL on a token that has none: a new secret, returned once; the removed one is gone.
      const add = await updateToken(ctx, token.id, { callBackUrl: again.url });
      const a4 = answered(add, ['TOKEN-008']);
      expectMember(
        add,
        a4,
        'signingSecret',
        (v) => typeof v === 'string' && v.length > 0,
        'a new signingSecret',
        ['TOKEN-008'],
        'adding a callBackUrl to a token without one answered no signingSecret',
      );
      const added = a4.signingSecret as string;
      expectMember(
        add,
        a4,
        'signingSecret',
        (v) => v !== original,
        'a secret other than the removed one',
        ['TOKEN-005'],
        'the secret was not removed with the webhook: the same secret came back',
      );
      const e3 = await createItem(ctx, '/events', { wfstatus: WORKFLOW_STATUS.approved }, { label: 'hook-again' });
      const { delivery: atAgain } = await waitForCallback(
        ctx,
        { endpoint: again },
        callbackId(e3.id, '/events', 'UPDATED'),
        ['TOKEN-008'],
      );
      if (!verifiesWith(atAgain, added)) {
        throw deliveryFailure(
          {
            message: 'the delivery does not verify with the signingSecret returned when the URL was added',
            received: atAgain.headers['x-service-signature'],
            expected: 'a signature made with the new secret',
            requirements: ['TOKEN-008'],
          },
          [atAgain],
        );
      }
      if (verifiesWith(atAgain, original)) {
        throw deliveryFailure(
          {
            message: 'the delivery still verifies with the secret removed together with the webhook',
            received: 'verifies with the old secret',
            expected: 'only the new secret verifies',
            requirements: ['TOKEN-005'],
          },
          [atAgain],
        );
      }
    });

    // 5. The same on a token created without a callBackUrl.
    const bare = await mintToken(ctx, {}, { requirements: ['TOKEN-008'] });
    try {
      const res = await updateToken(ctx, bare.id, { callBackUrl: ctx.receiver.endpoint(`${ctx.check.id}.late`).url });
      const answer = answered(res, ['TOKEN-008']);
      expectMember(
        res,
        answer,
        'signingSecret',
        (v) => typeof v === 'string' && v.length > 0,
        'a signingSecret',
        ['TOKEN-008'],
        'adding a callBackUrl to a token created without one answered no signingSecret',
      );
    } finally {
      await deleteTokenQuietly(ctx, bare.id);
    }
  },
});
