import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { logout, rememberSecrets, sessionPair, signIn } from '../../support/sessions.ts';

export default defineCheck({
  id: 'sessions.refresh',
  title: 'POST /auth/refresh rotates the pair; reusing a rotated refresh token revokes the whole session',
  requirements: ['DEC-AUTH-002', 'DEC-AUTH-012'],
  tags: ['sessions', 'security'],
  needs: ['session', 'consumer'],
  writes: 'one session (revoked by the check)',
  run: async (ctx) => {
    const first = sessionPair(await signIn(ctx), ['DEC-AUTH-002']);
    const res = await ctx.http.post('/auth/refresh', {
      token: 'none',
      json: { refresh_token: first.refresh_token },
      validate: 'defer',
    });
    rememberSecrets(ctx, res);
    const second = sessionPair(res, ['DEC-AUTH-002']);
    res.assertConforms(['DEC-AUTH-002']);
    if (second.refresh_token === first.refresh_token || second.access_token === first.access_token) {
      throw new CheckFailure({
        message: 'refresh answered the same token(s) again',
        received: 'an unchanged token',
        expected: 'a new access and refresh token',
        requirements: ['DEC-AUTH-002'],
        exchanges: [res.exchange],
      });
    }
    const works = await ctx.http.get('/events', { token: { bearer: second.access_token }, query: { size: 1 } });
    assertStatus(works, 200, { requirements: ['DEC-AUTH-002'] });

    // Reuse of the rotated refresh token: refused, and the session is gone.
    const reuse = await ctx.http.post('/auth/refresh', {
      token: 'none',
      json: { refresh_token: first.refresh_token },
      validate: 'defer',
    });
    assertStatus(reuse, 401, {
      requirements: ['DEC-AUTH-012', 'DEC-AUTH-002'],
      message: `reusing a rotated refresh token answered ${reuse.status}`,
    });
    reuse.assertConforms(['DEC-AUTH-012']);
    const revoked = await ctx.http.get('/events', {
      token: { bearer: second.access_token },
      query: { size: 1 },
      validate: 'defer',
    });
    if (revoked.status < 400) {
      await logout(ctx, second.access_token);
      throw new CheckFailure({
        message: `after a rotated refresh token was reused, the session's newest access token still works (${revoked.status})`,
        received: revoked.status,
        expected: 401,
        pointer: 'status',
        requirements: ['DEC-AUTH-012'],
        exchanges: [revoked.exchange],
      });
    }
    revoked.assertConforms(['DEC-AUTH-012']);
  },
});
