import { defineCheck } from '../../model/check.ts';
import { variantsOf } from '../../model/variants.ts';
import { assertStatus, forgetUnknownOperation } from '../../support/assert.ts';
import { deleteTokenQuietly, mintToken } from '../../support/tokens.ts';

export default defineCheck({
  id: 'sessions.logout-account-token',
  title:
    'POST /auth/logout with an account API token answers 400 and leaves the token working (account tokens end with DELETE)',
  requirements: ['DEC-AUTH-013'],
  tags: ['sessions'],
  needs: ['admin', 'write'],
  writes: 'one token (deleted at once)',
  run: async (ctx) => {
    // A token of its own: a target that wrongly revokes it must not cut the run's tokens off.
    const token = await mintToken(ctx, {});
    try {
      const bearer = token.bearer;
      if (!bearer) return ctx.skip('the token creation answer carries no token value (DEC-AUTH-006)');
      const logout = await ctx.http.request(variantsOf(ctx).logoutMethod, '/auth/logout', {
        token: { bearer },
        validate: 'defer',
      });
      forgetUnknownOperation(logout);
      assertStatus(logout, 400, { message: `POST /auth/logout with an account API token answered ${logout.status}` });
      logout.assertConforms();
      const still = await ctx.http.get('/events', { token: { bearer }, query: { size: 1 } });
      assertStatus(still, 200, {
        message: `after POST /auth/logout with an account token, the token answers ${still.status}`,
      });
    } finally {
      await deleteTokenQuietly(ctx, token.id);
    }
  },
});
