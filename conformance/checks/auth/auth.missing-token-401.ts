import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { COLLECTIONS } from '../../support/collections.ts';

export default defineCheck({
  id: 'auth.missing-token-401',
  title: 'Every list endpoint refuses a request without a token, or with an unknown one, with 401',
  requirements: ['AUTH-002', 'DEC-ERR-002'],
  tags: ['auth', 'smoke'],
  run: async (ctx) => {
    // AUTH-002 is checked on every endpoint before the first decision failure is reported.
    let decisionFailure: unknown;
    const unknown = { bearer: `${ctx.runId}-not-a-token-${ctx.fc.seed >>> 0}` };
    for (const { path } of COLLECTIONS) {
      for (const token of ['none', unknown] as const) {
        const res = await ctx.http.get(path, { token, query: { size: 1 }, validate: 'defer' });
        const what = token === 'none' ? 'without a token' : 'with an unknown token';
        if (res.status < 400) {
          throw new CheckFailure({
            message: `GET ${path} ${what} answered ${res.status}: the service must require a bearer token`,
            received: res.status,
            expected: '401',
            pointer: 'status',
            requirements: ['AUTH-002'],
            exchanges: [res.exchange],
          });
        }
        // Refused, but how is our decision: 401 with WWW-Authenticate: Bearer and the error shape.
        try {
          assertStatus(res, 401, {
            requirements: ['DEC-ERR-002'],
            message: `GET ${path} ${what} answered ${res.status}, expected 401 (DEC-ERR-002)`,
          });
          res.assertConforms(['DEC-ERR-002']);
        } catch (error) {
          decisionFailure ??= error;
        }
      }
    }
    ctx.verified(['AUTH-002']);
    if (decisionFailure) throw decisionFailure;
  },
});
