import { randomUUID } from 'node:crypto';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { listUserOrganisations } from '../../support/organisations.ts';
import { accountId, tokenIdOf } from '../../support/tokens.ts';

export default defineCheck({
  id: 'security.other-account',
  title:
    'An account admin cannot create, change, rotate or read the deliveries of tokens of another account (403 or 404)',
  requirements: ['DEC-AUTH-005', 'DEC-ERR-002'],
  tags: ['security', 'tokens'],
  needs: ['admin', 'write'],
  writes: 'nothing (a token in another account only if the target wrongly allows it)',
  run: async (ctx) => {
    const own = accountId(ctx);
    const other =
      (await listUserOrganisations(ctx, 'admin')).map((o) => o.accountId).find((a) => a !== own) ??
      `${ctx.runId}-other`;
    const base = `/accounts/${encodeURIComponent(other)}/tokens`;
    const someToken = randomUUID();
    const attempts = [
      ctx.http.post(base, {
        token: 'admin',
        json: { name: ctx.tag('foreign'), roles: ['ROLE_EXTERNAL_USER'] },
        validate: 'defer',
      }),
      ctx.http.put(`${base}/${someToken}`, { token: 'admin', json: { name: ctx.tag('foreign') }, validate: 'defer' }),
      ctx.http.post(`${base}/${someToken}/rotate-secret`, { token: 'admin', validate: 'defer' }),
      ctx.http.get(`${base}/${someToken}/deliveries`, { token: 'admin', validate: 'defer' }),
      ctx.http.delete(`${base}/${someToken}`, { token: 'admin', validate: 'defer' }),
    ];
    for (const res of await Promise.all(attempts)) {
      if (res.status < 400 || ![403, 404].includes(res.status)) {
        const created = tokenIdOf(ctx, res.body);
        if (res.status < 300 && created !== undefined)
          ctx.note(`the target created token ${created} in account ${other}; it could not be deleted by the suite`);
        throw new CheckFailure({
          message: `the admin of ${own}: ${res.exchange.request.method} ${new URL(res.url).pathname} in account ${other} answered ${res.status}`,
          received: res.status,
          expected: '403 or 404',
          pointer: 'status',
          exchanges: [res.exchange],
        });
      }
      res.assertConforms();
    }
  },
});
