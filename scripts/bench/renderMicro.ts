// Micro-bench of renderItem alone, without a database: a few thousand items made by seed.ts's
// templates and variation (only the calendar varied here, over two years and with time slots, so
// that event dates fall on both sides of DST changes), prepared as writeItem stores them, then
// rendered with the base ontologies. Prints µs/item per round and the median, and a digest of the rendered JSON, so that
// a change meant to be faster can show that its output is byte-identical.
//
//   node scripts/bench/renderMicro.ts [--items 4000] [--rounds 7] [--exclude-pattern-dates]

import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { indexOntologies, type OntologyIndexes } from '../../reference-impl/src/dictionary/indexes.ts';
import { loadBaseOntologies } from '../../reference-impl/src/dictionary/loadData.ts';
import { stripCategoriesForWrite } from '../../reference-impl/src/dictionary/stripCategoriesForWrite.ts';
import { prepareItemWrite } from '../../reference-impl/src/domain/itemWrite.ts';
import { renderItem } from '../../reference-impl/src/items/renderItem.ts';
import type { StoredItem } from '../../reference-impl/src/storage/items/itemRow.ts';
import { inJsonbOrder } from '../../reference-impl/src/storage/items/jsonbOrder.ts';
import {
  COLLECTION_SHARES,
  STATUS_SHARES,
  paletteOf,
  pick,
  prng,
  shiftCalendar,
  templateOf,
  variedBody,
  weighted,
} from './seed.ts';

type Loose = Record<string, unknown>;

// Starts and ends around midnight and the DST change hours (02:00–03:00) as well as ordinary ones.
const SLOTS = [
  ['20:15', '21:30'],
  ['09:00', '18:00'],
  ['22:00', '02:00'],
  ['20:00', '00:00'],
  ['02:30', '03:30'],
  ['01:45', '02:15'],
  ['00:00', '23:59'],
] as const;

function calendarOf(random: () => number, calendar: Loose): Loose {
  if (calendar.calendarType === 'ALWAYSOPEN') return calendar;
  // Up to two years on: dates on both sides of several DST changes.
  const shift = Math.floor(random() * 730) - 365;
  const [timestart, timeend] = pick(random, SLOTS);
  const when = random() < 0.5 ? undefined : [{ timestart, timeend }];
  return shiftCalendar(random, calendar, shift, when ? { when } : {});
}

/** seed.ts's items (one owner, rendered with the base ontologies), with the calendar varied over two years and time slots. */
export function buildItems(count: number, indexes: OntologyIndexes, seed = 20_270_814): StoredItem[] {
  const random = prng(seed);
  const palette = paletteOf(indexes);
  const templates = new Map(COLLECTION_SHARES.map(([collection]) => [collection, templateOf(collection)]));
  const token = { organisations: 'all' as const, accountOrganisations: [] };
  const items: StoredItem[] = [];
  for (let n = 1; n <= count; n++) {
    const collection = weighted(random, COLLECTION_SHARES);
    const template = templates.get(collection)!;
    const body = variedBody(
      random,
      n,
      collection,
      template,
      'amsterdam-marketing',
      palette,
      weighted(random, STATUS_SHARES),
    );
    const calendar = template.example.calendar as Loose | undefined;
    if (calendar !== undefined) body.calendar = calendarOf(random, calendar);
    // As seedItems stores it: the varied fields prepared, categories stripped, merged with the shared part.
    const prepared = prepareItemWrite({
      collection,
      body,
      token,
      stripCategories: stripCategoriesForWrite,
      newUuid: () => `uuid-${n}`,
    });
    const varied =
      prepared.doc.trcItemCategories === undefined
        ? prepared.doc
        : {
            ...prepared.doc,
            trcItemCategories: stripCategoriesForWrite(prepared.doc.trcItemCategories, indexes.properties),
          };
    const stamp = new Date(Date.UTC(2027, 0, 1) + n * 61_000);
    items.push({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      trcid: prepared.trcid,
      entitytype: prepared.entitytype,
      wfstatus: prepared.wfstatus,
      userorganisation: prepared.userorganisation,
      creationdate: stamp,
      lastupdated: stamp,
      externalId: null,
      title: prepared.title,
      slug: prepared.slug,
      doc: inJsonbOrder({ ...template.shared, ...varied }),
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
  const { values } = parseArgs({
    options: {
      items: { type: 'string', default: '4000' },
      rounds: { type: 'string', default: '7' },
      'exclude-pattern-dates': { type: 'boolean', default: false },
    },
  });
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
  console.log(
    `median: ${median(perItem).toFixed(1)} µs/item over ${items.length} items (excludePatternDates: ${options.excludePatternDates})`,
  );
  console.log(`output sha256: ${digest.digest('hex')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
