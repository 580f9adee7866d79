import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { listUserOrganisations } from '../../support/organisations.ts';
import { typeNodes } from '../../support/ontology.ts';
import type { Ontologies } from '../../support/ontology.ts';

const MAX_ACCOUNTS = 8;

export default defineCheck({
  id: 'ontology.deprecated-omitted',
  title:
    "The type ontology omits deprecated nodes by default (for every account); includeDeprecated=true returns them too, and a deprecated node's children are omitted with it",
  requirements: ['ONTO-012', 'ONTO-011', 'DEC-DICT-004', 'DEC-DICT-010'],
  tags: ['ontology', 'dictionary'],
  needs: ['consumer'],
  run: async (ctx) => {
    const accounts = [...new Set((await listUserOrganisations(ctx, 'consumer')).map((o) => o.accountId))].slice(
      0,
      MAX_ACCOUNTS,
    );
    let decisionFailure: CheckFailure | undefined;
    let deprecatedSeen = 0;
    for (const accountId of accounts) {
      const plain = await ctx.http.get('/dictionary/categorizationOntology', { query: { accountId } });
      assertStatus(plain, 200, { requirements: ['ONTO-012'] });
      const shown = typeNodes(plain.body as Ontologies['categorization']);
      const flagged = shown.find((n) => n.deprecated === true);
      if (flagged)
        throw new CheckFailure({
          message: `the type ontology of ${accountId} shows the deprecated node ${flagged.cnetID} by default`,
          received: `${flagged.cnetID} (${flagged.categorization}) deprecated: true`,
          expected: 'deprecated nodes omitted',
          requirements: ['ONTO-012'],
          exchanges: [plain.exchange],
        });
      if (decisionFailure) continue;
      const full = await ctx.http.get('/dictionary/categorizationOntology', {
        query: { accountId, includeDeprecated: true },
        validate: 'defer',
      });
      if (full.status !== 200) {
        full.assertConforms(['DEC-DICT-004']);
        decisionFailure = new CheckFailure({
          message: `includeDeprecated=true answered ${full.status}`,
          received: full.status,
          expected: 200,
          requirements: ['DEC-DICT-004'],
          exchanges: [full.exchange],
        });
        continue;
      }
      full.assertConforms(['DEC-DICT-004']);
      const all = typeNodes(full.body as Ontologies['categorization']);
      const shownIds = new Set(shown.map((n) => n.cnetID));
      const missing = shown.find((n) => !all.some((a) => a.cnetID === n.cnetID));
      if (missing)
        decisionFailure ??= new CheckFailure({
          message: `includeDeprecated=true leaves out ${missing.cnetID}, which the default shows`,
          received: 'a smaller ontology',
          expected: 'every node plus the deprecated ones',
          requirements: ['DEC-DICT-004'],
          exchanges: [full.exchange],
        });
      // A node under a deprecated one is hidden with it (DEC-DICT-010).
      const hiddenIds = new Set<string>();
      const walk = (nodes: Ontologies['categorization']['categorizations'], hidden: boolean) => {
        for (const n of (nodes ?? []) as { cnetID: string; deprecated?: boolean; child?: unknown[] }[]) {
          const h = hidden || n.deprecated === true;
          if (h) hiddenIds.add(n.cnetID);
          walk(n.child, h);
        }
      };
      walk((full.body as Ontologies['categorization']).categorizations, false);
      deprecatedSeen += hiddenIds.size;
      // A node the target itself marks deprecated must not be in the default answer, flag or not.
      const shownDeprecated = all.find((n) => n.deprecated === true && shownIds.has(n.cnetID));
      if (shownDeprecated)
        throw new CheckFailure({
          message: `${shownDeprecated.cnetID} is deprecated (includeDeprecated=true says so), yet the default ontology of ${accountId} shows it`,
          received: `${shownDeprecated.cnetID} (${shownDeprecated.categorization})`,
          expected: 'deprecated nodes omitted by default',
          requirements: ['ONTO-012'],
          exchanges: [plain.exchange, full.exchange],
        });
      const leaked = [...hiddenIds].find((id) => shownIds.has(id));
      if (leaked)
        decisionFailure ??= new CheckFailure({
          message: `${leaked} is deprecated or under a deprecated node, yet the default ontology of ${accountId} shows it`,
          received: leaked,
          expected: 'omitted with its deprecated ancestor',
          requirements: ['DEC-DICT-010'],
          exchanges: [plain.exchange, full.exchange],
        });
    }
    if (deprecatedSeen === 0)
      ctx.note(
        'no account has a deprecated type node (with includeDeprecated=true): the default could not be compared with one',
      );
    ctx.verified(['ONTO-012', 'ONTO-011']);
    if (decisionFailure) throw decisionFailure;
  },
});
