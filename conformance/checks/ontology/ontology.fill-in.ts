import { ENTITY_TYPE, WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem } from '../../support/items.ts';
import { findOwnOrganisation, writerToken } from '../../support/organisations.ts';
import { listItems } from '../../support/lists.ts';
import { ownerOntologies } from '../../support/ontology.ts';
import type { Item } from '../../support/itemTypes.ts';
import type { Exchange } from '../../model/exchange.ts';
import {
  assertLabelsFilledIn,
  dutchLabel,
  findLabel,
  liveOptions,
  pickProperty,
  pickTypeNode,
  propertyLabel,
  typeLabel,
} from '../../support/ontology.ts';

const LANGS = ['nl', 'en'];

/**
 * Labels are there at all, in every language of the item (ONTO-001, ONTO-004); whether they are
 * the owning account's is checked after.
 */
function assertFilledIn(labels: unknown, where: string, exchange: Exchange): void {
  const langs = new Set((Array.isArray(labels) ? (labels as { lang?: unknown }[]) : []).map((l) => l?.lang));
  const missing = LANGS.filter((lang) => !langs.has(lang));
  if (missing.length === 0) return;
  throw new CheckFailure({
    message:
      missing.length === LANGS.length
        ? `${where}: no labels filled in`
        : `${where}: no label in ${missing.join(', ')}, a language the item has`,
    received: labels ?? '(absent)',
    expected: `labels in ${LANGS.join(', ')}`,
    requirements: missing.length === LANGS.length ? ['ONTO-001', 'ONTO-004'] : ['ONTO-004'],
    exchanges: [exchange],
  });
}

export default defineCheck({
  id: 'ontology.fill-in',
  title:
    "Types and categories are stored as ids and their labels filled in on every read from the owning account's ontology, for the item's languages; translations sent on write are ignored",
  requirements: [
    'ONTO-001',
    'ONTO-002',
    'ONTO-003',
    'ONTO-004',
    'ONTO-005',
    'ONTO-008',
    'ONTO-014',
    'DICT-007',
    'DEC-DICT-003',
    'DEC-DICT-006',
    'DEC-DICT-007',
    'DEC-DICT-008',
  ],
  tags: ['ontology'],
  needs: ['write', 'consumer'],
  writes: 'one approved event with a type and three categories (tagged with the run id)',
  run: async (ctx) => {
    const org =
      (await findOwnOrganisation(ctx)) ??
      String((await listItems(ctx, '/events', { size: 1 })).items[0]?.userorganisation);
    const onto = await ownerOntologies(ctx, org);
    const node = pickTypeNode(onto.categorization, ENTITY_TYPE.EVENEMENT);
    const choice = pickProperty(onto.properties, 'choice', 1);
    const multi = pickProperty(onto.properties, 'multichoice', 2);
    const free = pickProperty(onto.properties, 'freetext');
    if (!node || !choice || !multi)
      return ctx.skip(
        `the ontology of account ${onto.accountId} lacks an EVENEMENT type node, a choice property with options or a multichoice property with two options`,
      );
    const bogus = `${ctx.runId} bogus label`;
    const bogusLabels = LANGS.map((lang) => ({ lang, label: bogus }));
    const [o1, o2] = liveOptions(multi);
    const categories: Record<string, unknown>[] = [
      {
        catid: choice.id,
        valueid: liveOptions(choice)[0]!.id,
        categoryTranslations: bogusLabels,
        valueCategoryTranslations: bogusLabels,
      },
      {
        catid: multi.id,
        categoryvalues: [{ catid: o1!.id, categoryTranslations: bogusLabels }, { catid: o2!.id }],
        categoryTranslations: bogusLabels,
      },
    ];
    if (free)
      categories.push({ catid: free.id, value: 'conformance', categoryTranslations: [{ lang: 'nl', label: bogus }] });
    const draft = {
      wfstatus: WORKFLOW_STATUS.approved,
      translations: { primaryLanguage: 'nl', availableLanguages: LANGS },
      trcItemDetails: [
        { lang: 'nl', title: `${ctx.runId} labels` },
        { lang: 'en', title: `${ctx.runId} labels` },
      ],
      trcItemCategories: {
        types: [{ catid: node.cnetID, isDefault: true, categoryTranslations: bogusLabels }],
        categories,
      },
    };
    const event = await createItem(ctx, '/events', draft, { label: 'labels', requirements: ['ONTO-005'] });

    // Every read fills the labels in: the writer's detail read and the consumer's list.
    const listed = await listItems(ctx, '/events', { trcid: event.trcid }, { token: 'consumer' });
    const reads: [string, Item | undefined, typeof event.created.exchange][] = [
      ['the read back after the write', event.item, event.created.exchange],
      ["the consumer token's list", listed.items[0], listed.res.exchange],
    ];
    for (const [where, item, exchange] of reads) {
      if (!item)
        throw new CheckFailure({
          message: `${where} does not hold the approved event ${event.trcid}`,
          received: '(absent)',
          expected: event.trcid,
          requirements: ['ONTO-001'],
          exchanges: [exchange],
        });
      const at = findLabel(item, bogus);
      if (at)
        throw new CheckFailure({
          message: `${where}: a label sent on write came back`,
          received: bogus,
          expected: "the ontology's label (translations sent on write are ignored)",
          pointer: at,
          requirements: ['ONTO-005', 'ONTO-004'],
          exchanges: [exchange],
        });
      const cats = item.trcItemCategories as
        { types?: Record<string, unknown>[]; categories?: Record<string, unknown>[] } | undefined;
      const type = cats?.types?.find((t) => t.catid === node.cnetID);
      if (!type)
        throw new CheckFailure({
          message: `${where}: the type ${node.cnetID} is gone`,
          received: cats?.types,
          expected: node.cnetID,
          requirements: ['ONTO-004'],
          exchanges: [exchange],
        });
      assertFilledIn(type.categoryTranslations, `${where}, type ${node.cnetID}`, exchange);
      assertLabelsFilledIn(
        type.categoryTranslations,
        LANGS,
        (lang) => typeLabel(node, lang),
        `${where}, type ${node.cnetID}`,
        [exchange],
        ['ONTO-002', 'ONTO-008', 'DICT-007'],
      );
      for (const p of [choice, multi, ...(free ? [free] : [])]) {
        const entry = cats?.categories?.find((c) => c.catid === p.id);
        if (!entry)
          throw new CheckFailure({
            message: `${where}: the category ${p.id} is gone`,
            received: cats?.categories,
            expected: p.id,
            requirements: ['ONTO-004'],
            exchanges: [exchange],
          });
        if (entry.datatype !== p.datatype)
          throw new CheckFailure({
            message: `${where}: category ${p.id} has datatype ${String(entry.datatype)}, the property's is ${p.datatype}`,
            received: entry.datatype,
            expected: p.datatype,
            requirements: ['ONTO-003'],
            exchanges: [exchange],
          });
        assertFilledIn(entry.categoryTranslations, `${where}, category ${p.id}`, exchange);
        assertLabelsFilledIn(
          entry.categoryTranslations,
          LANGS,
          (lang) => propertyLabel(p, lang),
          `${where}, category ${p.id}`,
          [exchange],
          ['ONTO-003', 'ONTO-008', 'DICT-007'],
        );
      }
      const chosen = cats!.categories!.find((c) => c.catid === choice.id)!;
      const option = liveOptions(choice)[0]!;
      if (chosen.valueid !== option.id || chosen.value !== dutchLabel(option)) {
        throw new CheckFailure({
          message: `${where}: the choice category ${choice.id} does not resolve its option ${option.id}`,
          received: { valueid: chosen.valueid, value: chosen.value },
          expected: { valueid: option.id, value: dutchLabel(option) },
          requirements: ['ONTO-014'],
          exchanges: [exchange],
        });
      }
      ctx.verified(['ONTO-001', 'ONTO-002', 'ONTO-003', 'ONTO-004', 'ONTO-005', 'ONTO-008', 'ONTO-014', 'DICT-007']);
      // DEC-DICT-008: the option labels per language.
      assertLabelsFilledIn(
        chosen.valueCategoryTranslations,
        LANGS,
        (lang) => propertyLabel(option, lang),
        `${where}, choice ${choice.id} valueCategoryTranslations`,
        [exchange],
        ['DEC-DICT-008'],
      );
      const picked = cats!.categories!.find((c) => c.catid === multi.id)!;
      for (const [i, o] of [o1!, o2!].entries()) {
        assertLabelsFilledIn(
          (picked.categoryvalues as Record<string, unknown>[] | undefined)?.[i]?.categoryTranslations,
          LANGS,
          (lang) => propertyLabel(o, lang),
          `${where}, multichoice ${multi.id} option ${o.id}`,
          [exchange],
          ['DEC-DICT-008'],
        );
      }
      assertLabelsFilledIn(
        picked.valueCategoryTranslations,
        LANGS,
        (lang) => `${propertyLabel(o1!, lang)};${propertyLabel(o2!, lang)}`,
        `${where}, multichoice ${multi.id} valueCategoryTranslations`,
        [exchange],
        ['DEC-DICT-008'],
      );
    }
    ctx.note(
      `labels from the ontology of account ${onto.accountId}, owner of ${org}; read with the ${writerToken(ctx)} and consumer tokens`,
    );
  },
});
