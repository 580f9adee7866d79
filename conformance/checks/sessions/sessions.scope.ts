import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { acknowledge } from '../../support/assert.ts';
import { createItem } from '../../support/items.ts';
import { logout, sessionPair, signIn } from '../../support/sessions.ts';

export default defineCheck({
  id: 'sessions.scope',
  title:
    "A session acts for its user: it sees items of the account's organisations in every status, e.g. one waiting for validation",
  requirements: ['DEC-AUTH-015'],
  tags: ['sessions', 'scope'],
  needs: ['session', 'write'],
  writes: 'one event waiting for validation (soft-deleted) and one session (signed out)',
  run: async (ctx) => {
    const item = await createItem(
      ctx,
      '/events',
      { wfstatus: WORKFLOW_STATUS.readyforvalidation },
      { label: 'session-scope' },
    );
    const pair = sessionPair(await signIn(ctx), ['DEC-AUTH-015']);
    try {
      const res = await ctx.http.get(item.path, { token: { bearer: pair.access_token }, validate: 'defer' });
      if (res.status !== 200 || (res.body as { id?: unknown } | undefined)?.id !== item.id) {
        throw new CheckFailure({
          message: `the signed-in user cannot read an item of the account waiting for validation (${res.status})`,
          received: res.status,
          expected: '200 with the item',
          pointer: 'status',
          exchanges: [res.exchange],
        });
      }
      res.assertConforms();
    } finally {
      await logout(ctx, pair.access_token).then((r) => acknowledge([r]));
    }
  },
});
