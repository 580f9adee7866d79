import type { HttpResponse } from '../../http/httpClient.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { acknowledge, assertStatus } from '../../support/assert.ts';
import {
  deleteTokenQuietly,
  mintToken,
  tokenAnswer,
  tokenIdOf,
  tokensPath,
  updateToken,
} from '../../support/tokens.ts';

export default defineCheck({
  id: 'tokens.admin-only',
  title: 'Token create, update, delete and rotate-secret are refused for a token without ROLE_ADMIN (with 403)',
  requirements: ['TOKEN-013', 'DEC-ERR-002'],
  tags: ['tokens', 'security'],
  needs: ['webhook', 'consumer'],
  writes: 'one token (deleted at once)',
  dependsOn: ['tokens.create'],
  run: async (ctx) => {
    const target = await mintToken(
      ctx,
      { callBackUrl: ctx.receiver.endpoint(`${ctx.check.id}.target`).url },
      { requirements: ['TOKEN-013'] },
    );
    let decision: CheckFailure | undefined;
    try {
      const attempts: [string, () => Promise<HttpResponse>][] = [
        [
          'create',
          () =>
            ctx.http.post(tokensPath(ctx), {
              token: 'consumer',
              json: { name: ctx.tag('not allowed'), roles: ['ROLE_EXTERNAL_USER'] },
              validate: 'defer',
            }),
        ],
        [
          'update',
          () =>
            ctx.http.put(tokensPath(ctx, target.id), {
              token: 'consumer',
              json: { name: ctx.tag('not allowed') },
              validate: 'defer',
            }),
        ],
        [
          'rotate-secret',
          () => ctx.http.post(tokensPath(ctx, target.id, '/rotate-secret'), { token: 'consumer', validate: 'defer' }),
        ],
        ['delete', () => ctx.http.delete(tokensPath(ctx, target.id), { token: 'consumer', validate: 'defer' })],
      ];
      for (const [what, send] of attempts) {
        const res = await send();
        if (res.status < 400) {
          const created = what === 'create' ? tokenIdOf(ctx, res.body) : undefined;
          if (created !== undefined) await deleteTokenQuietly(ctx, created);
          throw new CheckFailure({
            message: `token ${what} with the consumer token (no admin role) answered ${res.status}`,
            received: res.status,
            expected: 'refused: 403 (a 4xx)',
            pointer: 'status',
            requirements: ['TOKEN-013'],
            exchanges: [res.exchange],
          });
        }
        try {
          assertStatus(res, 403, {
            requirements: ['DEC-ERR-002'],
            message: `token ${what} with the consumer token answered ${res.status}; DEC-ERR-002 makes a missing role a 403`,
          });
          res.assertConforms(['DEC-ERR-002']);
        } catch (error) {
          if (!(error instanceof CheckFailure)) throw error;
          decision ??= error;
          acknowledge([res]);
        }
      }
      // Nothing happened: the token is still there, with its webhook.
      const still = await updateToken(ctx, target.id, { name: ctx.tag('still here') });
      assertStatus(still, 200, {
        requirements: ['TOKEN-013'],
        message: `after the refused delete, PUT of the token with the admin token answered ${still.status}: the consumer's DELETE took effect`,
      });
      acknowledge([still]);
      const answer = tokenAnswer(still, ['TOKEN-013']);
      if (answer.callBackUrl !== target.answer.callBackUrl) {
        throw new CheckFailure({
          message: "the token's webhook changed although every consumer request was refused",
          received: answer.callBackUrl,
          expected: target.answer.callBackUrl,
          pointer: '/callBackUrl',
          requirements: ['TOKEN-013'],
          exchanges: [still.exchange],
        });
      }
    } finally {
      await deleteTokenQuietly(ctx, target.id);
    }
    ctx.verified(['TOKEN-013']);
    if (decision) throw decision;
  },
});
