import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertBodyIsArray, assertStatus } from '../../support/assert.ts';
import { userOrganisationEntries } from '../../model/userOrganisations.ts';
import { variantsOf } from '../../model/variants.ts';

export default defineCheck({
  id: 'dictionary.userorganisations',
  title:
    'GET /dictionary/userorganisations lists each organisation with its accountId and the ontology in use (open to a consumer token, sorted by userorganisation), including the organisations of --account-id',
  requirements: ['DICT-005', 'DEC-DICT-002', 'DEC-DICT-012', 'DEC-MISC-002'],
  tags: ['dictionary'],
  needs: ['consumer'],
  run: async (ctx) => {
    const res = await ctx.http.get('/dictionary/userorganisations', { validate: 'defer' });
    assertStatus(res, 200, { requirements: ['DICT-005'] });
    // The layout beyond the named members is the target's choice (an array, or a map keyed by organisation).
    const shape = variantsOf(ctx).userOrganisationsShape;
    if (shape === 'array') assertBodyIsArray(res, { requirements: ['DICT-005'] });
    else if (typeof res.body !== 'object' || res.body === null || Array.isArray(res.body))
      throw new CheckFailure({
        message: 'GET /dictionary/userorganisations did not answer a map keyed by organisation (the layout in force)',
        received: res.text.slice(0, 200),
        expected: 'a JSON object',
        requirements: ['DICT-005'],
        exchanges: [res.exchange],
      });
    const all = userOrganisationEntries(res.body, shape);
    for (const [i, o] of all.entries()) {
      if (typeof o?.userorganisation !== 'string' || typeof o.accountId !== 'string' || o.ontology === undefined) {
        throw new CheckFailure({
          message: `entry ${i} does not name its organisation, account and ontology in use`,
          received: o,
          expected: '{userorganisation, accountId, ontology, …}',
          pointer: shape === 'array' ? `/${i}` : `/${o?.userorganisation}`,
          requirements: ['DICT-005'],
          exchanges: [res.exchange],
        });
      }
    }
    if (ctx.config.accountId && !all.some((o) => o.accountId === ctx.config.accountId)) {
      throw new CheckFailure({
        message: `no organisation of account ${ctx.config.accountId} (--account-id) is listed`,
        received: [...new Set(all.map((o) => o.accountId))].join(', '),
        expected: ctx.config.accountId,
        requirements: ['DICT-005'],
        exchanges: [res.exchange],
      });
    }
    ctx.verified(['DICT-005']);
    res.assertConforms(['DEC-DICT-002']);
    const names = all.map((o) => o.userorganisation);
    const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const odd = all.find((o) => !/^[A-Za-z0-9_-]{1,64}$/.test(o.accountId));
    if (odd)
      throw new CheckFailure({
        message: `the account id of ${odd.userorganisation} is not 1–64 characters [A-Za-z0-9_-]`,
        received: odd.accountId,
        expected: '[A-Za-z0-9_-]{1,64}',
        requirements: ['DEC-MISC-002'],
        exchanges: [res.exchange],
      });
    if (names.join('\n') !== sorted.join('\n'))
      throw new CheckFailure({
        message: 'the organisations are not sorted by userorganisation',
        received: names,
        expected: sorted,
        requirements: ['DEC-DICT-012'],
        exchanges: [res.exchange],
      });
  },
});
