import { defineCheck } from '../../model/check.ts';
import { assertStatus } from '../../support/assert.ts';

export default defineCheck({
  id: 'health.responds',
  title: 'GET /actuator/health answers 200 {status: "UP"} without a token',
  requirements: ['HEALTH-001', 'DEC-MISC-001'],
  tags: ['smoke'],
  run: async (ctx) => {
    const res = await ctx.http.get('/actuator/health', { token: 'none', validate: 'defer' });
    if ((res.status === 401 || res.status === 403) && ctx.tokens.consumer) {
      // Health may be protected (the interface does not say); only our decision makes it public.
      const withToken = await ctx.http.get('/actuator/health', { token: 'consumer' });
      assertStatus(withToken, 200, { requirements: ['HEALTH-001'] });
      ctx.verified(['HEALTH-001']);
      assertStatus(res, 200, {
        requirements: ['DEC-MISC-001'],
        message: `GET /actuator/health without a token answered ${res.status}; DEC-MISC-001 makes it public`,
      });
    }
    assertStatus(res, 200);
    res.assertConforms(['DEC-MISC-001']);
  },
});
