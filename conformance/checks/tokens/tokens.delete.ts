import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { mintToken, tokensPath } from '../../support/tokens.ts';

export default defineCheck({
  id: 'tokens.delete',
  title: 'DELETE of a token deletes it: it no longer authenticates and it can no longer be edited',
  requirements: ['TOKEN-009'],
  tags: ['tokens'],
  needs: ['webhook'],
  writes: 'one token (deleted by the check)',
  dependsOn: ['tokens.create'],
  run: async (ctx) => {
    const token = await mintToken(ctx, {});
    if (token.bearer) {
      const before = await ctx.http.get('/events', { token: { bearer: token.bearer }, query: { size: 1 } });
      assertStatus(before, 200, {
        message: `GET /events with the new token answered ${before.status} before it was deleted`,
      });
    }
    const res = await ctx.http.delete(tokensPath(ctx, token.id), { token: 'admin' });
    assertStatus(res, [200, 204]);

    if (token.bearer) {
      const after = await ctx.http.get('/events', {
        token: { bearer: token.bearer },
        query: { size: 1 },
        validate: 'defer',
      });
      if (after.status < 400) {
        throw new CheckFailure({
          message: `the deleted token still authenticates: GET /events answered ${after.status}`,
          received: after.status,
          expected: '401 (refused)',
          pointer: 'status',
          exchanges: [after.exchange],
        });
      }
      after.assertConforms();
    } else {
      ctx.note('the creation answer carried no token value (DEC-AUTH-006); only the token URLs are checked');
    }
    // The interface says only that DELETE deletes the token: an edit of it must be refused (a 4xx;
    // we answer 404, others may say 410), and a second DELETE may be refused or answered as done.
    const put = await ctx.http.put(tokensPath(ctx, token.id), {
      token: 'admin',
      json: { name: ctx.tag('gone') },
      validate: 'defer',
    });
    if (put.status < 400 || put.status >= 500) {
      throw new CheckFailure({
        message: `PUT of the deleted token answered ${put.status}: the token is still there`,
        received: put.status,
        expected: 'a 4xx (the token is gone)',
        pointer: 'status',
        exchanges: [put.exchange],
      });
    }
    put.assertConforms();
    const again = await ctx.http.delete(tokensPath(ctx, token.id), { token: 'admin', validate: 'defer' });
    assertStatus(again, [200, 204, 404, 410], {
      message: `a second DELETE of the deleted token answered ${again.status}`,
    });
    again.assertConforms();
    ctx.note(`after the delete: PUT answered ${put.status}, a second DELETE ${again.status}`);
  },
});
