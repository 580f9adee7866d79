import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem } from '../../support/items.ts';

export default defineCheck({
  id: 'ontology.unknown-catid',
  title: 'A type or category whose catid is not in the ontology comes back with its catid and without translations',
  requirements: ['ONTO-007'],
  tags: ['ontology'],
  needs: ['write'],
  writes: 'one event with unknown catids (tagged with the run id)',
  run: async (ctx) => {
    const typeId = `9${Date.now() % 100000}.999.999`;
    const propertyId = `${ctx.runId}-no-such-property`;
    const draft = {
      translations: { primaryLanguage: 'nl', availableLanguages: ['nl', 'en'] },
      trcItemCategories: {
        types: [{ catid: typeId, isDefault: true }],
        categories: [{ catid: propertyId, value: 'x' }],
      },
    };
    let event;
    try {
      event = await createItem(ctx, '/events', draft, { label: 'unknown-catid' });
    } catch (error) {
      // A target may refuse unknown ids on write; ontology.rename-visible sees an id leave the ontology instead.
      ctx.unverified(
        ['ONTO-007'],
        `the target refuses unknown catids on write (${(error as Error).message.slice(0, 120)}); ontology.rename-visible removes one from the ontology instead`,
      );
      return;
    }
    const cats = event.item.trcItemCategories as
      { types?: Record<string, unknown>[]; categories?: Record<string, unknown>[] } | undefined;
    for (const [kind, entry, id] of [
      ['type', cats?.types?.find((t) => t.catid === typeId), typeId],
      ['category', cats?.categories?.find((c) => c.catid === propertyId), propertyId],
    ] as const) {
      if (!entry)
        throw new CheckFailure({
          message: `${event.path}: the ${kind} with the unknown catid ${id} is gone`,
          received: cats,
          expected: `the ${kind} ${id} without translations`,
          requirements: ['ONTO-007'],
          exchanges: [event.created.exchange],
        });
      const t = entry.categoryTranslations;
      if (Array.isArray(t) ? t.length > 0 : t !== undefined)
        throw new CheckFailure({
          message: `${event.path}: the ${kind} ${id}, unknown to the ontology, has translations`,
          received: t,
          expected: 'no translations',
          requirements: ['ONTO-007'],
          exchanges: [event.created.exchange],
        });
    }
  },
});
