import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import type { TokenChoice } from '../../http/httpClient.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { createItem, updateItem } from '../../support/items.ts';
import { deleteTokenQuietly, mintToken, narrowedTo, twoOrganisations } from '../../support/tokens.ts';

export default defineCheck({
  id: 'security.foreign-item',
  title:
    'A token restricted to one organisation cannot read (404), find, change or delete an item of another organisation (BOLA)',
  requirements: ['AUTH-004', 'DEC-ERR-002', 'DEC-ITEM-007'],
  tags: ['security', 'scope'],
  needs: ['admin', 'write'],
  writes: 'one token (deleted at once) and one event in each of two organisations of the account (soft-deleted)',
  run: async (ctx) => {
    const orgs = await twoOrganisations(ctx, ['AUTH-004', 'DEC-ERR-002', 'DEC-ITEM-007']);
    if (!orgs) return;
    const [mine, theirs] = orgs;
    const minted = await mintToken(
      ctx,
      narrowedTo(ctx, {
        organisations: [mine],
        statuses: [WORKFLOW_STATUS.approved, WORKFLOW_STATUS.archived, WORKFLOW_STATUS.deleted],
      }),
      { requirements: ['AUTH-004'] },
    );
    if (!minted.bearer) {
      await deleteTokenQuietly(ctx, minted.id);
      ctx.unverified(
        ['AUTH-004', 'DEC-ERR-002', 'DEC-ITEM-007'],
        'the token creation answer carries no token value (DEC-AUTH-006), so the suite cannot call with a restricted token',
      );
      return;
    }
    const token: TokenChoice = { bearer: minted.bearer };
    try {
      const [own, foreign] = await Promise.all([
        createItem(
          ctx,
          '/events',
          { wfstatus: WORKFLOW_STATUS.approved, userorganisation: mine },
          { label: 'bola-own' },
        ),
        createItem(
          ctx,
          '/events',
          { wfstatus: WORKFLOW_STATUS.approved, userorganisation: theirs },
          { label: 'bola-foreign' },
        ),
      ]);
      const control = await ctx.http.get(own.path, { token });
      assertStatus(control, 200, {
        requirements: ['AUTH-004'],
        message: `the token restricted to ${mine} cannot read an item of ${mine} (${control.status})`,
      });

      const read = await ctx.http.get(foreign.path, { token, validate: 'defer' });
      if (read.status === 200) {
        throw new CheckFailure({
          message: `a token restricted to ${mine} read an item of ${theirs} by its id`,
          received: 200,
          expected: '404',
          pointer: 'status',
          requirements: ['AUTH-004'],
          exchanges: [read.exchange],
        });
      }
      const found = await ctx.http.get('/events', { token, query: { trcid: foreign.trcid } });
      if (Array.isArray(found.body) && found.body.length > 0) {
        throw new CheckFailure({
          message: `a token restricted to ${mine} finds an item of ${theirs} by trcid`,
          received: found.body.length,
          expected: 0,
          requirements: ['AUTH-004'],
          exchanges: [found.exchange],
        });
      }
      ctx.verified(['AUTH-004']);

      const put = await updateItem(
        ctx,
        foreign,
        { trcItemDetails: [{ lang: 'nl', title: `${foreign.trcid} overwritten by another organisation` }] },
        { token },
      );
      const del = await ctx.http.delete(foreign.path, { token, validate: 'defer' });
      for (const [res, what] of [
        [put, 'PUT'],
        [del, 'DELETE'],
      ] as const) {
        if (res.status < 400)
          throw new CheckFailure({
            message: `a token restricted to ${mine} could ${what} an item of ${theirs}`,
            received: res.status,
            expected: '404 (not found for this token)',
            pointer: 'status',
            requirements: ['DEC-ITEM-007'],
            exchanges: [res.exchange],
          });
      }
      ctx.verified(['DEC-ITEM-007']);
      for (const res of [read, put, del]) {
        assertStatus(res, 404, {
          requirements: ['DEC-ERR-002'],
          message: `${res.exchange.request.method} of another organisation's item answered ${res.status}; DEC-ERR-002 makes an object outside the caller's scope a 404`,
        });
        res.assertConforms(['DEC-ERR-002']);
      }
    } finally {
      await deleteTokenQuietly(ctx, minted.id);
    }
  },
});
