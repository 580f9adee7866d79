import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { acknowledge, assertStatus } from '../../support/assert.ts';
import { deleteTokenQuietly, mintToken, rotateSecret, updateToken } from '../../support/tokens.ts';

export default defineCheck({
  id: 'tokens.secret-never-shown-again',
  title: 'No answer of the whole run shows a signingSecret (or a token value) again after the answer that created it',
  requirements: ['TOKEN-002', 'DEC-AUTH-006'],
  tags: ['tokens', 'security'],
  needs: ['webhook'],
  writes: 'one token (deleted at once)',
  // Last, so that it sees every answer the run received.
  order: 'last',
  dependsOn: ['tokens.create'],
  run: async (ctx) => {
    // Its own token, so the scan is meaningful in a run of this check alone.
    const token = await mintToken(ctx, { callBackUrl: ctx.receiver.endpoint(`${ctx.check.id}.a`).url });
    try {
      for (const res of [
        await updateToken(ctx, token.id, { name: ctx.tag('renamed') }),
        await updateToken(ctx, token.id, { callBackUrl: ctx.receiver.endpoint(`${ctx.check.id}.b`).url }),
        await updateToken(ctx, token.id, { useOptimizedImages: true }),
        await rotateSecret(ctx, token.id),
        await updateToken(ctx, token.id, { name: ctx.tag('after rotation') }),
      ]) {
        assertStatus(res, 200, { requirements: ['TOKEN-002'] });
        acknowledge([res]);
      }
    } finally {
      await deleteTokenQuietly(ctx, token.id);
    }

    const sightings = ctx.secretSightings();
    const secrets = sightings.filter((s) => s.label.startsWith('signingSecret'));
    const values = sightings.filter((s) => s.label.startsWith('token value'));
    ctx.note(`scanned every answer of the run for the secrets it handed out; ${sightings.length} sighting(s)`);
    for (const [found, requirement, what] of [
      [secrets, 'TOKEN-002', 'signingSecret'],
      [values, 'DEC-AUTH-006', 'token value'],
    ] as const) {
      const first = found[0];
      if (!first) continue;
      throw new CheckFailure({
        message: `a ${what} was shown again after the answer that created it: ${first.exchange.request.method} ${first.exchange.request.url} (check ${first.checkId}) has it in its ${first.where}${found.length > 1 ? ` (and ${found.length - 1} more)` : ''}`,
        received: `${first.label} in the ${first.where}`,
        expected: `the ${what} only in the answer that created it`,
        requirements: [requirement],
        exchanges: found.slice(0, 3).map((s) => s.exchange),
      });
    }
  },
});
