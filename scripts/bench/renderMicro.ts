// Micro-bench of renderItem alone, without a database: a few thousand items cloned from the spec's
// examples and varied as seed.ts varies them (plus varied time slots, so that event dates fall on
// both sides of DST changes), prepared as writeItem stores them, then rendered with the base
// ontologies. Prints µs/item per round and the median, and a digest of the rendered JSON, so that
// a change meant to be faster can show that its output is byte-identical.
//
//   node scripts/bench/renderMicro.ts [--items 4000] [--rounds 7] [--exclude-pattern-dates]

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { indexOntologies, type OntologyIndexes } from '../../reference-impl/src/dictionary/indexes.ts';
import { loadBaseOntologies } from '../../reference-impl/src/dictionary/loadData.ts';
import { stripCategoriesForWrite } from '../../reference-impl/src/dictionary/stripCategoriesForWrite.ts';
import type { Collection } from '../../reference-impl/src/domain/entityRules.ts';
import { prepareItemWrite } from '../../reference-impl/src/domain/itemWrite.ts';
import { renderItem } from '../../reference-impl/src/items/renderItem.ts';
import type { StoredItem } from '../../reference-impl/src/storage/items/itemRow.ts';
import { COLLECTION_SHARES, STATUS_SHARES, prng } from './seed.ts';

type Loose = Record<string, unknown>;

const EXAMPLES: Readonly<Record<Collection, string>> = {
  events: 'EventGrachtenfestival', locations: 'LocationRijksmuseum', routes: 'RouteVecht',
  venues: 'VenueJaarbeurs', eventgroups: 'EventGroupGrachtenfestival',
};
const CITIES = [['Amsterdam', 4.8952, 52.3702], ['Utrecht', 5.1214, 52.0907], ['Middelburg', 3.6136, 51.4988], ['Haarlem', 4.6462, 52.3874]] as const;
// Starts and ends around midnight and the DST change hours (02:00–03:00) as well as ordinary ones.
const SLOTS = [['20:15', '21:30'], ['09:00', '18:00'], ['22:00', '02:00'], ['20:00', '24:00'], ['02:30', '03:30'], ['01:45', '02:15'], ['00:00', '23:59']] as const;
const TREES: Readonly<Record<Collection, 'EVENEMENT' | 'LOCATIE' | 'ROUTE'>> = {
  events: 'EVENEMENT', eventgroups: 'EVENEMENT', locations: 'LOCATIE', venues: 'LOCATIE', routes: 'ROUTE',
};

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

function weighted<T>(random: () => number, shares: ReadonlyArray<readonly [T, number]>): T {
  let r = random();
  for (const [value, share] of shares) if ((r -= share) < 0) return value;
  return shares[shares.length - 1]![0];
}

function loadExample(name: string): Loose {
  const url = new URL(`../../spec/components/examples/${name}.yaml`, import.meta.url);
  return (parse(readFileSync(url, 'utf8')) as { value: Loose }).value;
}

function shiftDate(text: string, days: number): string {
  const match = /^(\d{4}-\d{2}-\d{2})(.*)$/.exec(text);
  if (!match) return text;
  const date = new Date(`${match[1]}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return `${date.toISOString().slice(0, 10)}${match[2]}`;
}

/** Type ids per tree and property ids with their options, from the ontologies the items are rendered with. */
function paletteOf(indexes: OntologyIndexes) {
  const types: Record<'EVENEMENT' | 'LOCATIE' | 'ROUTE', string[]> = { EVENEMENT: [], LOCATIE: [], ROUTE: [] };
  for (const [cnetID, entry] of indexes.types.byCnetId) if (entry.entityType !== undefined && cnetID.includes('.')) types[entry.entityType].push(cnetID);
  const properties = [...indexes.properties.properties.values()].filter((p) => !p.deprecated).map((p) => p.property);
  return { types, properties };
}

function categoriesOf(random: () => number, palette: ReturnType<typeof paletteOf>, collection: Collection, langs: string[], n: number): Loose {
  const tree = palette.types[TREES[collection]];
  const types = Array.from({ length: random() < 0.3 ? 2 : 1 }, (_, i) => ({ catid: random() < 0.01 ? `9.9.${n % 50}` : pick(random, tree), isDefault: i === 0 }));
  const categories: Loose[] = [];
  for (let i = 3 + Math.floor(random() * 6); i > 0; i--) {
    const property = pick(random, palette.properties);
    const options = (property.options ?? []).filter((o) => o.deprecated !== true).map((o) => o.id);
    const entry: Loose = { catid: property.id };
    switch (property.datatype) {
      case 'choice': if (options.length === 0) continue; entry.valueid = pick(random, options); break;
      case 'multichoice': {
        if (options.length === 0) continue;
        const chosen = options.filter(() => random() < 0.5);
        entry.categoryvalues = (chosen.length > 0 ? chosen : [options[0]!]).map((catid) => ({ catid }));
        break;
      }
      case 'freetext': entry.value = `Bijzonderheid ${n}`; entry.categoryTranslations = langs.map((lang) => ({ lang, value: `${lang} ${n}` })); break;
      case 'url': entry.categoryTranslations = langs.map((lang) => ({ lang, value: `https://www.example.nl/${lang}/item/${n}` })); break;
      case 'integer': entry.value = String(1 + (n % 500)); break;
      case 'decimal': entry.value = `${n % 10},${n % 100}`; break;
      default: entry.value = random() < 0.5 ? 'True' : 'ja';
    }
    categories.push(entry);
  }
  return { types, categories };
}

function calendarOf(random: () => number, calendar: Loose): Loose {
  if (calendar.calendarType === 'ALWAYS') return calendar;
  // Up to two years on: dates on both sides of several DST changes.
  const shift = Math.floor(random() * 730) - 365;
  const [timestart, timeend] = pick(random, SLOTS);
  const when = random() < 0.5 ? undefined : [{ timestart, timeend }];
  const shifted: Loose = {
    ...calendar,
    singleDates: ((calendar.singleDates ?? []) as Loose[]).map((d) => ({ ...d, date: shiftDate(String(d.date), shift), ...(when ? { when } : {}) })),
  };
  if (Array.isArray(calendar.patternDates)) {
    if (random() < 0.5) {
      shifted.patternDates = (calendar.patternDates as Loose[]).map((p) => ({ ...p, startdate: shiftDate(String(p.startdate), shift), enddate: shiftDate(String(p.enddate), shift) }));
    } else {
      delete shifted.patternDates;
      shifted.calendarType = 'SINGLEDATES';
    }
  }
  return shifted;
}

export function buildItems(count: number, indexes: OntologyIndexes, seed = 20_270_814): StoredItem[] {
  const random = prng(seed);
  const palette = paletteOf(indexes);
  const examples = new Map((Object.keys(EXAMPLES) as Collection[]).map((c) => [c, loadExample(EXAMPLES[c])]));
  const token = { organisations: 'all' as const, accountOrganisations: [] };
  const items: StoredItem[] = [];
  for (let n = 1; n <= count; n++) {
    const collection = weighted(random, COLLECTION_SHARES);
    const example = examples.get(collection)!;
    const langs = random() < 0.85 ? ['nl', 'en'] : ['nl'];
    const city = pick(random, CITIES);
    const details = (Array.isArray(example.trcItemDetails) ? example.trcItemDetails : []) as Loose[];
    const body: Loose = {
      ...example,
      trcid: `micro-${collection}-${n}`,
      userorganisation: 'amsterdam-marketing',
      wfstatus: weighted(random, STATUS_SHARES),
      slug: `item-${n}`,
      trcItemDetails: langs.map((lang) => ({ ...(details.find((d) => d.lang === lang) ?? details[0]), lang, title: `${city[0]} ${lang} ${n}` })),
      translations: { primaryLanguage: 'nl', availableLanguages: langs },
      trcItemCategories: categoriesOf(random, palette, collection, langs, n),
    };
    const location = example.location as Loose | undefined;
    if (location !== undefined) {
      body.location = {
        ...location,
        address: { ...(location.address as Loose | undefined), city: city[0], housenr: String(1 + (n % 300)) },
        xcoordinate: (city[1] + (random() - 0.5) * 0.1).toFixed(6),
        ycoordinate: (city[2] + (random() - 0.5) * 0.06).toFixed(6),
      };
    }
    if (example.calendar !== undefined) body.calendar = calendarOf(random, example.calendar as Loose);
    const prepared = prepareItemWrite({ collection, body, token, newUuid: () => `uuid-${n}` });
    const doc = prepared.doc.trcItemCategories === undefined ? prepared.doc
      : { ...prepared.doc, trcItemCategories: stripCategoriesForWrite(prepared.doc.trcItemCategories, indexes.properties) };
    const stamp = new Date(Date.UTC(2027, 0, 1) + n * 61_000);
    items.push({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, trcid: prepared.trcid, entitytype: prepared.entitytype,
      wfstatus: prepared.wfstatus, userorganisation: prepared.userorganisation, creationdate: stamp, lastupdated: stamp,
      externalId: null, title: prepared.title, slug: prepared.slug, doc,
    });
  }
  return items;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function main(): void {
  const { values } = parseArgs({ options: {
    items: { type: 'string', default: '4000' },
    rounds: { type: 'string', default: '7' },
    'exclude-pattern-dates': { type: 'boolean', default: false },
  } });
  const ontologies = indexOntologies(loadBaseOntologies());
  const items = buildItems(Number(values.items), ontologies);
  const options = { ontologies, excludePatternDates: values['exclude-pattern-dates'] };

  // The digest first: it also warms up the JIT before anything is timed.
  const digest = createHash('sha256');
  for (const item of items) digest.update(JSON.stringify(renderItem(item, options)));
  const perItem: number[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    const started = performance.now();
    for (const item of items) renderItem(item, options);
    perItem.push(((performance.now() - started) * 1000) / items.length);
  }
  console.log(`rounds µs/item: ${perItem.map((us) => us.toFixed(1)).join(' ')}`);
  console.log(`median: ${median(perItem).toFixed(1)} µs/item over ${items.length} items (excludePatternDates: ${options.excludePatternDates})`);
  console.log(`output sha256: ${digest.digest('hex')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
