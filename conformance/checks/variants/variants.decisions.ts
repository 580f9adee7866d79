import { DEFAULT_VARIANTS, variantsOf } from '../../model/variants.ts';
import type { VariantName } from '../../model/variants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';

/** The decision each variant's default stands for. */
const DECISION_OF: Partial<Record<VariantName, string>> = {
  createdItem: 'DEC-ITEM-002',
  updatePath: 'DEC-ITEM-001',
  userOrganisationsShape: 'DEC-DICT-002',
  assetFirstPage: 'DEC-LIST-009',
  listFirstPage: 'DEC-LIST-002',
  signIn: 'DEC-AUTH-001',
  logoutMethod: 'DEC-AUTH-003',
  tokenIdField: 'DEC-MISC-002',
  tokenFilter: 'DEC-AUTH-004',
};

/** Decisions that rule more than the variant: a match leaves their other rules to their own checks. */
const BROADER = new Set<VariantName>(['assetFirstPage', 'listFirstPage']);

export default defineCheck({
  id: 'variants.decisions',
  title:
    "The target's choices where the interface is silent (discovered at the start of the run, or declared) match this project's decisions: created item in the answer, PUT on the detail URL, userorganisations as an array, asset and item list pages from 0, sign-in {username, password}, logout by POST, token id in id, apiTokenFilter as {userorganisations, wfstatus}",
  requirements: [...new Set(Object.values(DECISION_OF))],
  tags: ['variants', 'decision'],
  run: async (ctx) => {
    const resolved = ctx.config.variants;
    const values = variantsOf(ctx);
    const differ: string[] = [];
    for (const [name, decision] of Object.entries(DECISION_OF) as [VariantName, string][]) {
      const source = resolved?.sources[name] ?? 'default';
      if (source === 'default') {
        ctx.unverified([decision], `${name}: ${resolved?.notes[name] ?? 'not discovered'}`);
        continue;
      }
      const value = JSON.stringify(values[name]);
      if (value !== JSON.stringify(DEFAULT_VARIANTS[name]))
        differ.push(`${name}: ${value} (${source}; ${decision} says ${JSON.stringify(DEFAULT_VARIANTS[name])})`);
      else if (BROADER.has(name)) ctx.unverified([decision], `${name} matches; its other rules are checked elsewhere`);
      else ctx.verified([decision]);
    }
    if (differ.length > 0)
      throw new CheckFailure({
        message: `the target decided differently where the interface is silent: ${differ.join('; ')}`,
        received: differ,
        expected: 'the reference decisions',
        requirements: Object.entries(DECISION_OF)
          .filter(([name]) => differ.some((d) => d.startsWith(`${name}:`)))
          .map(([, decision]) => decision),
      });
  },
});
