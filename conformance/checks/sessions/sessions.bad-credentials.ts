import { randomUUID } from 'node:crypto';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { signIn } from '../../support/sessions.ts';

export default defineCheck({
  id: 'sessions.bad-credentials',
  title:
    'POST /auth/signin with an unknown user or a wrong password answers 401 with WWW-Authenticate and the error body; a body that is not JSON 400',
  requirements: ['DEC-ERR-002', 'DEC-AUTH-001', 'DEC-ERR-001', 'DEC-ERR-003'],
  tags: ['sessions', 'security'],
  run: async (ctx) => {
    const attempts = [{ username: `${ctx.tag('nobody')}@conformance.invalid`, password: randomUUID() }];
    if (ctx.tokens.sessionUser) attempts.push({ username: ctx.tokens.sessionUser, password: `${randomUUID()}-wrong` });
    for (const credentials of attempts) {
      const res = await signIn(ctx, credentials);
      if (res.status < 400 || res.status >= 500) {
        throw new CheckFailure({
          message: `sign-in with wrong credentials answered ${res.status}`,
          received: res.status,
          expected: 401,
          pointer: 'status',
          requirements: ['DEC-ERR-002'],
          exchanges: [res.exchange],
        });
      }
      assertStatus(res, 401, { requirements: ['DEC-ERR-002'] });
      if (!/^Bearer\b/i.test(res.headers['www-authenticate'] ?? '')) {
        throw new CheckFailure({
          message: 'the 401 of a failed sign-in has no WWW-Authenticate: Bearer',
          received: res.headers['www-authenticate'] ?? '(absent)',
          expected: 'Bearer',
          pointer: 'header/WWW-Authenticate',
          requirements: ['DEC-ERR-002'],
          exchanges: [res.exchange],
        });
      }
      res.assertConforms(['DEC-ERR-001']);
    }
    const broken = await ctx.http.post('/auth/signin', {
      token: 'none',
      body: '{"username": ',
      headers: { 'content-type': 'application/json' },
      validate: 'defer',
    });
    assertStatus(broken, 400, { requirements: ['DEC-ERR-003'] });
    broken.assertConforms(['DEC-ERR-003']);
  },
});
