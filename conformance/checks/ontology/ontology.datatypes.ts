import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem } from '../../support/items.ts';
import { findOwnOrganisation } from '../../support/organisations.ts';
import { listItems } from '../../support/lists.ts';
import { ownerOntologies } from '../../support/ontology.ts';
import type { PropertyNode } from '../../support/ontology.ts';
import { dutchLabel, liveOptions, pickProperty } from '../../support/ontology.ts';
import type { Label } from '../../support/ontology.ts';

type Entry = Record<string, unknown>;
interface Case {
  datatype: string;
  requirement: string;
  options?: number;
  write: (p: PropertyNode) => Entry;
  /** Why the entry read back is wrong, or undefined. */
  verify: (entry: Entry, p: PropertyNode) => { received: unknown; expected: unknown } | undefined;
}

const valueIs = (want: unknown) => (entry: Entry) =>
  entry.value === want ? undefined : { received: entry.value, expected: want };
const perLang = (entry: Entry) =>
  new Map(((entry.categoryTranslations as Label[] | undefined) ?? []).map((t) => [t.lang, t.value]));
const URLS = { nl: 'https://conformance.example/nl', en: 'https://conformance.example/en' };

const CASES: Case[] = [
  { datatype: 'yes', requirement: 'DT-001', write: (p) => ({ catid: p.id, value: 'true' }), verify: valueIs('True') },
  {
    datatype: 'yesno',
    requirement: 'DT-002',
    write: (p) => ({ catid: p.id, value: 'false' }),
    verify: valueIs('False'),
  },
  {
    datatype: 'nullableyesno',
    requirement: 'DT-003',
    write: (p) => ({ catid: p.id, value: null }),
    verify: valueIs(null),
  },
  {
    datatype: 'choice',
    requirement: 'DT-004',
    options: 1,
    write: (p) => ({ catid: p.id, valueid: liveOptions(p)[0]!.id }),
    verify: (e, p) =>
      e.valueid === liveOptions(p)[0]!.id && e.value === dutchLabel(liveOptions(p)[0]!)
        ? undefined
        : {
            received: { valueid: e.valueid, value: e.value },
            expected: { valueid: liveOptions(p)[0]!.id, value: dutchLabel(liveOptions(p)[0]!) },
          },
  },
  {
    datatype: 'multichoice',
    requirement: 'DT-005',
    options: 2,
    write: (p) => ({
      catid: p.id,
      categoryvalues: liveOptions(p)
        .slice(0, 2)
        .map((o) => ({ catid: o.id })),
    }),
    verify: (e, p) => {
      const want = liveOptions(p).slice(0, 2).map(dutchLabel).join(';');
      const values = (e.categoryvalues as Entry[] | undefined) ?? [];
      const filled =
        values.length === 2 &&
        values.every((v) => Array.isArray(v.categoryTranslations) && v.categoryTranslations.length > 0);
      return e.value === want && filled
        ? undefined
        : {
            received: { value: e.value, categoryvalues: values },
            expected: { value: want, categoryvalues: 'both options, each with its translations' },
          };
    },
  },
  {
    datatype: 'freetext',
    requirement: 'DT-006',
    write: (p) => ({ catid: p.id, value: 'vrije tekst', categoryTranslations: [{ lang: 'en', value: 'free text' }] }),
    verify: (e) => (e.value === 'vrije tekst' ? undefined : { received: e.value, expected: 'vrije tekst' }),
  },
  { datatype: 'integer', requirement: 'DT-007', write: (p) => ({ catid: p.id, value: '42' }), verify: valueIs('42') },
  { datatype: 'decimal', requirement: 'DT-008', write: (p) => ({ catid: p.id, value: '2.5' }), verify: valueIs('2.5') },
  {
    datatype: 'date',
    requirement: 'DT-009',
    write: (p) => ({ catid: p.id, value: '2027-03-04' }),
    verify: valueIs('2027-03-04'),
  },
  {
    datatype: 'data',
    requirement: 'DT-010',
    write: (p) => ({ catid: p.id, value: '<p>Rolstoel <b>toegankelijk</b></p>' }),
    verify: (e) =>
      typeof e.value === 'string' &&
      !/<\/?[a-z][^>]*>/i.test(e.value) &&
      e.value.includes('Rolstoel') &&
      e.value.includes('toegankelijk')
        ? undefined
        : { received: e.value, expected: 'the text without its HTML tags' },
  },
  {
    datatype: 'url',
    requirement: 'DT-011',
    write: (p) => ({
      catid: p.id,
      categoryTranslations: Object.entries(URLS).map(([lang, value]) => ({ lang, value })),
    }),
    verify: (e) =>
      perLang(e).get('nl') === URLS.nl && perLang(e).get('en') === URLS.en
        ? undefined
        : { received: e.categoryTranslations, expected: `categoryTranslations values ${JSON.stringify(URLS)}` },
  },
  {
    datatype: 'email',
    requirement: 'DT-012',
    write: (p) => ({ catid: p.id, value: 'info@conformance.example' }),
    verify: valueIs('info@conformance.example'),
  },
  {
    datatype: 'phone',
    requirement: 'DT-013',
    write: (p) => ({ catid: p.id, value: '+31 20 123 4567' }),
    verify: valueIs('+31 20 123 4567'),
  },
];

export default defineCheck({
  id: 'ontology.datatypes',
  title:
    "A category of each datatype found in the owning account's ontology is stored and normalised as its datatype says (yes/yesno to True/False, choice and multichoice labels, HTML stripped from data, per-language urls, …)",
  requirements: [...CASES.map((c) => c.requirement), 'VER-003', 'ONTO-003', 'DEC-ITEM-018'],
  tags: ['ontology', 'datatypes'],
  needs: ['write'],
  writes: 'one event with a category of every datatype (tagged with the run id)',
  run: async (ctx) => {
    const org =
      (await findOwnOrganisation(ctx)) ??
      String((await listItems(ctx, '/events', { size: 1 })).items[0]?.userorganisation);
    const onto = await ownerOntologies(ctx, org);
    const used: { c: Case; p: PropertyNode }[] = [];
    for (const c of CASES) {
      const p = pickProperty(onto.properties, c.datatype, c.options ?? 0);
      if (p) used.push({ c, p });
      else
        ctx.unverified(
          [c.requirement, ...(['data', 'url', 'email', 'phone'].includes(c.datatype) ? ['VER-003'] : [])],
          `the ontology of account ${onto.accountId} has no property of datatype ${c.datatype}`,
        );
    }
    const draft = {
      translations: { primaryLanguage: 'nl', availableLanguages: ['nl', 'en'] },
      trcItemCategories: { categories: used.map(({ c, p }) => c.write(p)) },
    };
    const event = await createItem(ctx, '/events', draft, { label: 'datatypes', requirements: ['ONTO-003'] });
    const entries = (event.item.trcItemCategories as { categories?: Entry[] } | undefined)?.categories ?? [];
    let decisionFailure: CheckFailure | undefined;
    for (const { c, p } of used) {
      const entry = entries.find((e) => e.catid === p.id);
      const fail = (message: string, received: unknown, expected: unknown, requirements: string[]) =>
        new CheckFailure({
          message: `${event.path}: ${message}`,
          received,
          expected,
          requirements,
          exchanges: [event.created.exchange],
        });
      if (!entry)
        throw fail(
          `the ${c.datatype} category ${p.id} is gone`,
          entries.map((e) => e.catid),
          p.id,
          [c.requirement],
        );
      if (entry.datatype !== c.datatype)
        throw fail(
          `category ${p.id} has datatype ${String(entry.datatype)}, its property's is ${c.datatype}`,
          entry.datatype,
          c.datatype,
          ['ONTO-003', c.requirement],
        );
      const wrong = c.verify(entry, p);
      if (wrong)
        throw fail(
          `the ${c.datatype} category ${p.id} is not stored as its datatype says`,
          wrong.received,
          wrong.expected,
          [c.requirement],
        );
      if (c.datatype === 'freetext' && perLang(entry).get('en') !== 'free text') {
        decisionFailure ??= fail(
          `the en value of the freetext category ${p.id} was not kept`,
          entry.categoryTranslations,
          'categoryTranslations [{lang: en, value: "free text"}]',
          ['DEC-ITEM-018'],
        );
      }
    }
    const may2025 = ['data', 'url', 'email', 'phone'].every((d) => used.some(({ c }) => c.datatype === d));
    ctx.verified([...used.map(({ c }) => c.requirement), ...(may2025 ? ['VER-003'] : []), 'ONTO-003']);
    if (decisionFailure) throw decisionFailure;
  },
});
