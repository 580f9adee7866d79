import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { detailPath } from '../../support/itemTypes.ts';
import { propertyNodes } from '../../support/ontology.ts';
import type { Ontologies, PropertyNode } from '../../support/ontology.ts';
import { dutchLabel, liveOptions } from '../../support/ontology.ts';
import { feed, feedEvent, findImported, importedItem, partnerId, runFeed } from '../../support/feeds.ts';

// ONTO-009: on feed input a category may be a plain-text value without catid; the target maps
// it to a category id, Dutch names best. The entry names a yes-property and an option of a
// choice property by their Dutch labels, taken from the account's own property ontology (each
// label unique there, so the mapping is not a guess), plus a text no category has, which
// DEC-FEED-011 lists in the run's unmappedCategories.

type Entry = Record<string, unknown>;

/** Letters and digits only, lower case, no diacritics: labels that differ only so are the same name. */
const key = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** How often each label key occurs among every property and option label of the ontology, any language. */
function labelCounts(properties: readonly PropertyNode[]): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (node: { name: string; propertytranslations?: { text: string }[] }) => {
    for (const text of new Set([node.name, ...(node.propertytranslations ?? []).map((t) => t.text)].map(key)))
      counts.set(text, (counts.get(text) ?? 0) + 1);
  };
  for (const p of properties) {
    add(p);
    for (const o of p.options ?? []) add(o);
  }
  return counts;
}

/** Whether an item's category entry names `id` (as catid, valueid or one of categoryvalues). */
function names(entry: Entry, id: string): boolean {
  return (
    entry.catid === id ||
    entry.valueid === id ||
    (Array.isArray(entry.categoryvalues) && (entry.categoryvalues as Entry[]).some((v) => v.catid === id))
  );
}

export default defineCheck({
  id: 'feeds.category-label',
  title:
    "A category given by a feed as a plain-text Dutch label without catid is mapped to its id (a yes-property and an option of the account's property ontology); a text no category has is reported in unmappedCategories",
  requirements: ['ONTO-009', 'DEC-FEED-011', 'DEC-FEED-002'],
  tags: ['feeds', 'ontology'],
  needs: ['feed'],
  writes: 'one event imported through the feed (partner id tagged with the run id)',
  run: async (ctx) => {
    const { partner } = feed(ctx);
    const ontologyRes = await ctx.http.get('/dictionary/propertiesOntology', {
      query: { accountId: ctx.config.accountId },
      token: 'admin',
    });
    assertStatus(ontologyRes, 200, {
      requirements: ['ONTO-009'],
      message: `GET /dictionary/propertiesOntology?accountId=${ctx.config.accountId} answered ${ontologyRes.status}`,
    });
    const all = propertyNodes(ontologyRes.body as Ontologies['properties']);
    const counts = labelCounts(all);
    const unique = (node: { name: string; propertytranslations?: { lang: string; text: string }[] }) =>
      counts.get(key(dutchLabel(node))) === 1;
    const flag = all.find((p) => p.datatype === 'yes' && p.deprecated !== true && unique(p));
    const choice = all
      .filter((p) => p.datatype === 'choice' && p.deprecated !== true)
      .flatMap((p) =>
        liveOptions(p)
          .filter(unique)
          .map((o) => ({ property: p, option: o })),
      )[0];
    if (!flag && !choice) {
      ctx.unverified(
        ['ONTO-009'],
        `the property ontology of account ${ctx.config.accountId} has no yes-property and no choice option with a Dutch label of its own`,
      );
    }

    const id = partnerId(ctx, 'labels');
    const nowhere = `${ctx.runId} geen bestaande categorie`;
    const sent = [...(flag ? [dutchLabel(flag)] : []), ...(choice ? [dutchLabel(choice.option)] : []), nowhere];
    partner.serve([feedEvent(id, {}, { trcItemCategories: { categories: sent.map((value) => ({ value })) } })]);
    const run = await runFeed(ctx, { size: 1 }, { requirements: ['ONTO-009'] });
    const found = await findImported(ctx, run, [id], ['ONTO-009']);
    const item = importedItem(found, run, id, ['ONTO-009']);
    const path = detailPath('/events', String(item.id));
    const categories = (item.trcItemCategories as { categories?: Entry[] } | undefined)?.categories ?? [];
    const evidence = [run.res.exchange, found.res.exchange];
    const unmapped = [
      ...(flag && !categories.some((e) => names(e, flag.id)) ? [{ label: dutchLabel(flag), id: flag.id }] : []),
      ...(choice && !categories.some((e) => names(e, choice.option.id))
        ? [{ label: dutchLabel(choice.option), id: `${choice.property.id} option ${choice.option.id}` }]
        : []),
    ];
    if (unmapped.length > 0) {
      throw new CheckFailure({
        message: `${path}: the plain-text categor${unmapped.length === 1 ? 'y' : 'ies'} ${unmapped.map((u) => `"${u.label}"`).join(' and ')} of the feed entry ${unmapped.length === 1 ? 'was' : 'were'} not mapped to ${unmapped.map((u) => u.id).join(' and ')}`,
        received: categories,
        expected: unmapped.map((u) => `a category naming ${u.id}`),
        pointer: '/trcItemCategories/categories',
        requirements: ['ONTO-009'],
        exchanges: evidence,
      });
    }
    if (flag || choice) ctx.verified(['ONTO-009']);

    // DEC-FEED-011: the text no category has is reported with the item's externalId.
    const listed = run.report.unmappedCategories.some((u) => u.value === nowhere && u.externalId === item.externalId);
    if (!listed) {
      throw new CheckFailure({
        message: `the run did not list the plain-text category "${nowhere}", which no category has, in unmappedCategories`,
        received: run.report.unmappedCategories,
        expected: [{ externalId: item.externalId, value: nowhere }],
        pointer: '/unmappedCategories',
        requirements: ['DEC-FEED-011'],
        exchanges: [run.res.exchange],
      });
    }
  },
});
