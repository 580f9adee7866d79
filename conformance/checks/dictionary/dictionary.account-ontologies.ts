import { isDeepStrictEqual } from 'node:util';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import type { HttpResponse } from '../../http/httpClient.ts';
import { assertStatus } from '../../support/assert.ts';
import { listUserOrganisations } from '../../support/organisations.ts';

const KINDS = [
  { path: '/dictionary/categorizationOntology', key: 'categorization', requirement: 'DICT-001' },
  { path: '/dictionary/propertiesOntology', key: 'properties', requirement: 'DICT-003' },
] as const;
const MAX_ACCOUNTS = 8;

export default defineCheck({
  id: 'dictionary.account-ontologies',
  title:
    "Both ontologies are returned for every account with ?accountId=; accounts on the base ontology get the same one; without accountId the caller's own account is used; an unknown account is a 404",
  requirements: [
    'DICT-001',
    'DICT-002',
    'DICT-003',
    'AUTH-008',
    'ONTO-010',
    'ONTO-011',
    'ONTO-013',
    'ONTO-015',
    'DEC-DICT-005',
  ],
  tags: ['dictionary', 'ontology'],
  needs: ['consumer'],
  run: async (ctx) => {
    const orgs = await listUserOrganisations(ctx, 'consumer');
    const accounts = [...new Map(orgs.map((o) => [o.accountId, o])).values()].slice(0, MAX_ACCOUNTS);
    for (const { path, key, requirement } of KINDS) {
      let base: { account: string; res: HttpResponse } | undefined;
      for (const org of accounts) {
        const res = await ctx.http.get(path, { query: { accountId: org.accountId }, validate: 'defer' });
        assertStatus(res, 200, { requirements: [requirement] });
        if ((res.body as { lastModified?: unknown } | undefined)?.lastModified == null)
          throw new CheckFailure({
            message: `${path}?accountId=${org.accountId} has no lastModified at its root`,
            received: Object.keys((res.body ?? {}) as object),
            expected: 'lastModified',
            requirements: ['ONTO-010'],
            exchanges: [res.exchange],
          });
        // The rest of the answer's shape is the ontology's (ONTO-011, ONTO-013).
        res.assertConforms([key === 'categorization' ? 'ONTO-011' : 'ONTO-013']);
        const inUse = (org.ontology as Record<string, string> | undefined)?.[key];
        if (inUse !== 'base') continue;
        if (!base) base = { account: org.accountId, res };
        else if (!isDeepStrictEqual(base.res.body, res.body)) {
          throw new CheckFailure({
            message: `accounts ${base.account} and ${org.accountId} both use the base ${key} ontology (userorganisations) but get different ones`,
            received: `${path}?accountId=${org.accountId}`,
            expected: `the same ontology as ${path}?accountId=${base.account}`,
            requirements: ['DICT-002', 'ONTO-015'],
            exchanges: [base.res.exchange, res.exchange],
          });
        }
      }
      // AUTH-008: the own account is derived from the token (the admin token belongs to --account-id).
      if (ctx.tokens.admin && ctx.config.accountId) {
        const own = await ctx.http.get(path, { token: 'admin' });
        const named = await ctx.http.get(path, { token: 'admin', query: { accountId: ctx.config.accountId } });
        if (!isDeepStrictEqual(own.body, named.body)) {
          throw new CheckFailure({
            message: `${path} without accountId (admin token of ${ctx.config.accountId}) differs from ?accountId=${ctx.config.accountId}`,
            received: 'a different ontology',
            expected: `the ontology of ${ctx.config.accountId}`,
            requirements: ['AUTH-008'],
            exchanges: [own.exchange, named.exchange],
          });
        }
      } else {
        ctx.unverified(['AUTH-008'], 'needs the admin token and --account-id to know which account a token belongs to');
      }
    }
    ctx.verified(['DICT-001', 'DICT-002', 'DICT-003', 'AUTH-008', 'ONTO-010', 'ONTO-011', 'ONTO-013', 'ONTO-015']);
    const unknown = await ctx.http.get(KINDS[0].path, {
      query: { accountId: `${ctx.runId}-no-such-account` },
      validate: 'defer',
    });
    assertStatus(unknown, 404, { requirements: ['DEC-DICT-005'] });
    unknown.assertConforms(['DEC-DICT-005']);
  },
});
