import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { variantsOf } from '../../model/variants.ts';
import { jwtClaims, logout, sessionPair, signIn } from '../../support/sessions.ts';

const HOUR = 3600;

export default defineCheck({
  id: 'sessions.sign-in',
  title:
    'POST /auth/signin (JSON) answers access_token, expires_in and refresh_token; the access token is a JWT valid for one hour and a bearer; logout answers 200 {message} without a redirect and the token stops working at once',
  requirements: ['SESSION-001', 'VER-004', 'SESSION-003', 'AUTH-003', 'SESSION-002', 'DEC-AUTH-003', 'DEC-AUTH-014'],
  tags: ['sessions'],
  needs: ['session', 'consumer'],
  writes: 'one session (signed out at once)',
  run: async (ctx) => {
    const res = await signIn(ctx);
    // A refused sign-in may be a sign-in that is not a POST with a JSON body (VER-004); a 200
    // without one of the members is the token response's problem only (SESSION-001).
    const pair = sessionPair(res, res.status === 200 ? ['SESSION-001'] : ['SESSION-001', 'VER-004']);
    res.assertConforms(['SESSION-001']);
    ctx.verified(['SESSION-001', 'VER-004']);

    // A JWT valid for one hour.
    const claims = jwtClaims(pair.access_token);
    if (!claims || typeof claims.exp !== 'number') {
      throw new CheckFailure({
        message: 'the access_token is not a JWT with an exp claim',
        received: claims ? Object.keys(claims) : 'not three base64url parts with a JSON payload',
        expected: 'a JWT (header.payload.signature) with exp',
        requirements: ['SESSION-003', 'AUTH-003'],
        exchanges: [res.exchange],
      });
    }
    const issued = typeof claims.iat === 'number' ? claims.iat : Math.floor((res.date ?? new Date()).getTime() / 1000);
    const lifetime = claims.exp - issued;
    const exact = typeof claims.iat === 'number';
    if (exact ? lifetime !== HOUR : Math.abs(lifetime - HOUR) > 60) {
      throw new CheckFailure({
        message: `the session token is valid for ${lifetime} s (exp − ${exact ? 'iat' : "the answer's Date"})`,
        received: lifetime,
        expected: `${HOUR} (one hour)`,
        requirements: ['SESSION-003', 'AUTH-003'],
        exchanges: [res.exchange],
      });
    }
    if (pair.expires_in < 1 || pair.expires_in > HOUR) {
      throw new CheckFailure({
        message: `expires_in is ${pair.expires_in}`,
        received: pair.expires_in,
        expected: `1…${HOUR} seconds`,
        pointer: '/expires_in',
        requirements: ['SESSION-003'],
        exchanges: [res.exchange],
      });
    }
    const read = await ctx.http.get('/events', { token: { bearer: pair.access_token }, query: { size: 1 } });
    assertStatus(read, 200, {
      requirements: ['AUTH-003'],
      message: `GET /events with the session token answered ${read.status}`,
    });
    ctx.verified(['SESSION-003', 'AUTH-003']);

    // Logout: 200 {message}, no redirect; the token is refused at once.
    const out = await logout(ctx, pair.access_token);
    const method = variantsOf(ctx).logoutMethod;
    if (out.status >= 300 && out.status < 400) {
      throw new CheckFailure({
        message: `${method} /auth/logout redirects (${out.status} to ${out.headers.location ?? '?'})`,
        received: out.status,
        expected: '200 with a JSON message, no redirect',
        requirements: ['SESSION-002'],
        exchanges: [out.exchange],
      });
    }
    assertStatus(out, 200, { requirements: ['SESSION-002'] });
    const message = (out.body as { message?: unknown } | undefined)?.message;
    if (typeof message !== 'string' || out.headers.location !== undefined) {
      throw new CheckFailure({
        message: `${method} /auth/logout answered 200 without a JSON message${out.headers.location ? ' (and with a Location header)' : ''}`,
        received: out.text.slice(0, 200),
        expected: '{"message": "…"}',
        requirements: ['SESSION-002'],
        exchanges: [out.exchange],
      });
    }
    const after = await ctx.http.get('/events', {
      token: { bearer: pair.access_token },
      query: { size: 1 },
      validate: 'defer',
    });
    if (after.status < 400) {
      throw new CheckFailure({
        message: `right after logout the session token still works: GET /events answered ${after.status}`,
        received: after.status,
        expected: '401 (the session is revoked)',
        pointer: 'status',
        requirements: ['SESSION-002'],
        exchanges: [after.exchange],
      });
    }
    after.assertConforms(['SESSION-002']);
    out.assertConforms(['SESSION-002']);
    ctx.verified(['SESSION-002']);

    // Decisions: logout is a POST that revokes the refresh token too; sign-in is not cacheable, expires_in 3600.
    if (method !== 'POST')
      throw new CheckFailure({
        message: 'POST /auth/logout is not the logout',
        received: `${method} /auth/logout`,
        expected: 'POST /auth/logout',
        requirements: ['DEC-AUTH-003'],
        exchanges: [out.exchange],
      });
    const refresh = await ctx.http.post('/auth/refresh', {
      token: 'none',
      json: { refresh_token: pair.refresh_token },
      validate: 'defer',
    });
    if (refresh.status !== 401) {
      throw new CheckFailure({
        message: `after logout the refresh token still answers ${refresh.status}`,
        received: refresh.status,
        expected: 401,
        pointer: 'status',
        requirements: ['DEC-AUTH-003'],
        exchanges: [refresh.exchange],
      });
    }
    refresh.assertConforms(['DEC-AUTH-003']);
    if (pair.expires_in !== HOUR || !/no-store/i.test(res.headers['cache-control'] ?? '')) {
      throw new CheckFailure({
        message: 'the sign-in answer is cacheable or expires_in is not 3600',
        received: { expires_in: pair.expires_in, 'cache-control': res.headers['cache-control'] ?? '(absent)' },
        expected: { expires_in: HOUR, 'cache-control': 'no-store' },
        requirements: ['DEC-AUTH-014'],
        exchanges: [res.exchange],
      });
    }
  },
});
