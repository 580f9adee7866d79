// Bench data: N realistic items, cloned from the spec's examples and varied (entity type, owner,
// status, title, languages, type and property categories taken from the owner's ontologies, dates,
// coordinates), prepared by the service's own write preparation (prepareItemWrite, then the
// categories stripped with the owner's property ontology, as writeItem does) and bulk inserted in
// batches with the same stamping rule as insertItem: one UPDATE of item_stamp reserves a run of
// consecutive stamps, GREATEST(last + 1, clock) for the first and +1 ms for each next one, exactly
// what the same writes one by one would get when they come faster than one per millisecond.

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadDataOverrides, loadDemoAccounts } from '../../reference-impl/src/dictionary/loadData.ts';
import type { OntologyIndexes } from '../../reference-impl/src/dictionary/indexes.ts';
import type { Datatype } from '../../reference-impl/src/domain/ontology.ts';
import type { Collection, EntityType } from '../../reference-impl/src/domain/entityRules.ts';
import { prepareItemWrite } from '../../reference-impl/src/domain/itemWrite.ts';
import type { StoredWfStatus } from '../../reference-impl/src/domain/workflow.ts';
import { stripCategoriesForWrite } from '../../reference-impl/src/dictionary/stripCategoriesForWrite.ts';
import { createOntologyCache } from '../../reference-impl/src/dictionary/ontologyCache.ts';
import type { Db } from '../../reference-impl/src/storage/db.ts';
import { seedOntologyOverrides } from '../../reference-impl/src/storage/dictionary/seedOntologyOverrides.ts';
import { createTestAccount, createTestToken } from '../../reference-impl/test/support/fixtures.ts';
import { refreshRenderings } from '../../reference-impl/src/items/renderingRefresher.ts';
import { storedRenderingOf } from '../../reference-impl/src/items/renderItem.ts';
import { inJsonbOrder } from '../../reference-impl/src/storage/items/jsonbOrder.ts';

type Loose = Record<string, unknown>;

/** Share of each collection in the seeded store (sums to 1). */
export const COLLECTION_SHARES: ReadonlyArray<readonly [Collection, number]> = [
  ['events', 0.5],
  ['locations', 0.25],
  ['routes', 0.12],
  ['venues', 0.05],
  ['eventgroups', 0.08],
];
/** Share of each status: mostly approved, some of every other. */
export const STATUS_SHARES: ReadonlyArray<readonly [StoredWfStatus, number]> = [
  ['approved', 0.82],
  ['archived', 0.07],
  ['deleted', 0.04],
  ['readyforvalidation', 0.04],
  ['rejected', 0.03],
];
/** Share of each owner; the accounts and organisations are the demo ones (three accounts, one with a type override, one with a property override). */
export const ORGANISATION_SHARES: ReadonlyArray<readonly [string, number]> = [
  ['amsterdam-marketing', 0.4],
  ['amsterdam-museums', 0.2],
  ['utrecht-toerisme', 0.25],
  ['vvv-zeeland', 0.15],
];

const EXAMPLES: Readonly<Record<Collection, string>> = {
  events: 'EventGrachtenfestival',
  locations: 'LocationRijksmuseum',
  routes: 'RouteVecht',
  venues: 'VenueJaarbeurs',
  eventgroups: 'EventGroupGrachtenfestival',
};
const TREE_OF: Readonly<Record<EntityType, 'EVENEMENT' | 'LOCATIE' | 'ROUTE'>> = {
  EVENEMENT: 'EVENEMENT',
  EVENTGROUP: 'EVENEMENT',
  LOCATIE: 'LOCATIE',
  VENUE: 'LOCATIE',
  ROUTE: 'ROUTE',
};

const WORDS_NL = [
  'Zomer',
  'Avond',
  'Grachten',
  'Licht',
  'Jazz',
  'Kunst',
  'Polder',
  'Duin',
  'Molen',
  'Haven',
  'Markt',
  'Kerk',
  'Tuin',
  'Water',
  'Fiets',
  'Wandel',
  'Oude',
  'Nieuwe',
  'Groot',
  'Klein',
];
const WORDS_EN = [
  'Summer',
  'Evening',
  'Canal',
  'Light',
  'Jazz',
  'Art',
  'Polder',
  'Dune',
  'Windmill',
  'Harbour',
  'Market',
  'Church',
  'Garden',
  'Water',
  'Cycling',
  'Walking',
  'Old',
  'New',
  'Great',
  'Little',
];
const NOUNS_NL = [
  'festival',
  'concert',
  'route',
  'museum',
  'tentoonstelling',
  'tocht',
  'voorstelling',
  'markt',
  'rondleiding',
  'zaal',
];
const NOUNS_EN = [
  'festival',
  'concert',
  'route',
  'museum',
  'exhibition',
  'tour',
  'show',
  'market',
  'guided tour',
  'hall',
];
const CITIES = [
  ['Amsterdam', 4.8952, 52.3702],
  ['Utrecht', 5.1214, 52.0907],
  ['Middelburg', 3.6136, 51.4988],
  ['Haarlem', 4.6462, 52.3874],
  ['Vlissingen', 3.5736, 51.4427],
  ['Amersfoort', 5.3878, 52.1561],
  ['Zaandam', 4.8264, 52.442],
  ['Goes', 3.8889, 51.5045],
] as const;

/** Deterministic PRNG (mulberry32): the same seed gives the same store. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function weighted<T>(random: () => number, shares: ReadonlyArray<readonly [T, number]>): T {
  let r = random();
  for (const [value, share] of shares) {
    if ((r -= share) < 0) return value;
  }
  return shares[shares.length - 1]![0];
}

export const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

function loadExample(name: string): Loose {
  const url = new URL(`../../spec/components/examples/${name}.yaml`, import.meta.url);
  return (parse(readFileSync(url, 'utf8')) as { value: Loose }).value;
}

/** What a seeded store holds, for the report. */
export interface SeedSummary {
  items: number;
  ms: number;
  /** CPU time of this process while seeding (the database's own on PostgreSQL is not in it). */
  cpuMs: number;
  itemsPerSecond: number;
  /** Average size of a stored document (JSON text of the `doc` column), bytes. */
  avgDocBytes: number;
  /** Of `ms`: rendering the items for their stored renderings, as every item write does (migration 007). */
  renderMs: number;
  byCollection: Record<string, number>;
  byStatus: Record<string, number>;
  byOrganisation: Record<string, number>;
  batchSize: number;
}

export interface BenchPrincipal {
  /** An integrator's account token: every seeded organisation, statuses approved, archived and deleted (what a sync needs). */
  token: string;
  organisations: string[];
}

/** Demo accounts, their ontology overrides, and the bench's token. */
export async function seedAccounts(db: Db): Promise<BenchPrincipal> {
  for (const account of loadDemoAccounts()) {
    await createTestAccount(db, { accountId: account.id, organisations: account.organisations, name: account.name });
  }
  await seedOntologyOverrides(db, loadDataOverrides());
  const organisations = ORGANISATION_SHARES.map(([o]) => o);
  const { token } = await createTestToken(db, {
    accountId: 'amsterdam',
    roles: ['ROLE_EXTERNAL_USER'],
    organisations,
    wfstatus: ['approved', 'archived', 'deleted'],
  });
  return { token, organisations };
}

export interface OwnerPalette {
  indexes: OntologyIndexes;
  /** Non-deprecated type cnetIDs per tree, with a few deprecated ones mixed in. */
  types: Record<'EVENEMENT' | 'LOCATIE' | 'ROUTE', string[]>;
  properties: Array<{ id: string; datatype: Datatype; options: string[] }>;
}

export function paletteOf(indexes: OntologyIndexes): OwnerPalette {
  const types: OwnerPalette['types'] = { EVENEMENT: [], LOCATIE: [], ROUTE: [] };
  for (const [cnetID, entry] of indexes.types.byCnetId) {
    if (entry.entityType === undefined || !cnetID.includes('.')) continue;
    types[entry.entityType].push(cnetID);
  }
  const properties: OwnerPalette['properties'] = [];
  for (const [id, entry] of indexes.properties.properties) {
    if (entry.deprecated) continue;
    properties.push({
      id,
      datatype: entry.property.datatype,
      options: (entry.property.options ?? []).filter((o) => o.deprecated !== true).map((o) => o.id),
    });
  }
  return { indexes, types, properties };
}

function categoryValue(
  random: () => number,
  property: OwnerPalette['properties'][number],
  langs: readonly string[],
  n: number,
): Loose | undefined {
  const entry: Loose = { catid: property.id };
  switch (property.datatype) {
    case 'yes':
      entry.value = 'True';
      break;
    case 'yesno':
      entry.value = random() < 0.7 ? 'True' : 'False';
      break;
    case 'nullableyesno':
      entry.value = random() < 0.5 ? 'ja' : 'nee';
      break;
    case 'choice': {
      if (property.options.length === 0) return undefined;
      entry.valueid = pick(random, property.options);
      break;
    }
    case 'multichoice': {
      if (property.options.length === 0) return undefined;
      const chosen = property.options.filter(() => random() < 0.5);
      entry.categoryvalues = (chosen.length > 0 ? chosen : [property.options[0]!]).map((catid) => ({ catid }));
      break;
    }
    case 'integer':
      entry.value = String(1 + Math.floor(random() * 500));
      break;
    case 'decimal':
      entry.value = `${Math.floor(random() * 10)},${Math.floor(random() * 100)}`;
      break;
    case 'date':
      entry.value = `2027-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 10)}`;
      break;
    case 'freetext':
      entry.value = `Bijzonderheid ${n}: ${pick(random, WORDS_NL).toLowerCase()} ${pick(random, NOUNS_NL)}.`;
      entry.categoryTranslations = langs.map((lang) => ({
        lang,
        value:
          lang === 'nl'
            ? entry.value
            : `Particular ${n}: ${pick(random, WORDS_EN).toLowerCase()} ${pick(random, NOUNS_EN)}.`,
      }));
      break;
    case 'url':
      entry.categoryTranslations = langs.map((lang) => ({ lang, value: `https://www.example.nl/${lang}/item/${n}` }));
      break;
    case 'email':
      entry.value = `info${n % 997}@example.nl`;
      break;
    case 'phone':
      entry.value = `+31 20 ${String(1_000_000 + (n % 8_999_999)).slice(0, 3)} ${String(n % 10_000).padStart(4, '0')}`;
      break;
    case 'data':
      entry.value = `<p>Openingstijden <b>${9 + (n % 3)}:00</b> tot 17:00</p>`;
      break;
  }
  return entry;
}

/** Keywords of the seeded items: `jazz` is one of them, so the bench's keyword filter matches. */
const KEYWORDS = [
  'jazz',
  'klassiek',
  'pop',
  'rock',
  'theater',
  'cabaret',
  'dans',
  'film',
  'museum',
  'kunst',
  'geschiedenis',
  'fietsen',
  'wandelen',
  'natuur',
  'strand',
  'markt',
  'festival',
  'kinderen',
  'familie',
  'eten',
  'bier',
  'wijn',
  'architectuur',
  'fotografie',
  'literatuur',
  'sport',
  'varen',
  'kerk',
  'molens',
  'winter',
] as const;

/** Fields varied per item; every other field of an example is the same in each copy. */
const VARIED_FIELDS = [
  'trcid',
  'userorganisation',
  'wfstatus',
  'slug',
  'trcItemDetails',
  'translations',
  'trcItemCategories',
  'location',
  'calendar',
  'owner',
  'keywords',
  'markers',
];
const VARIED_EVENT_FIELDS = [...VARIED_FIELDS, 'trcitemRelation'];
const variedFieldsOf = (collection: Collection) => (collection === 'events' ? VARIED_EVENT_FIELDS : VARIED_FIELDS);

/** An example, with the document part shared by all its copies prepared (and serialised) once. */
export interface Template {
  example: Loose;
  entitytype: EntityType;
  /** The prepared document's fields that are not varied, as JSON members without braces. */
  staticMembers: string;
  /** The same fields as an object (for rendering). */
  shared: Loose;
}

export function templateOf(collection: Collection): Template {
  const example = loadExample(EXAMPLES[collection]);
  const prepared = prepareItemWrite({
    collection,
    body: example,
    token: { organisations: 'all', accountOrganisations: [] },
    stripCategories: stripCategoriesForWrite,
  });
  const varied = new Set(variedFieldsOf(collection));
  const shared = Object.fromEntries(Object.entries(prepared.doc).filter(([field]) => !varied.has(field)));
  return { example, entitytype: prepared.entitytype, staticMembers: JSON.stringify(shared).slice(1, -1), shared };
}

/** The varied fields a writer would send for item `n` (the rest of the body is its example's). */
export function variedBody(
  random: () => number,
  n: number,
  collection: Collection,
  template: Template,
  owner: string,
  palette: OwnerPalette,
  wfstatus: StoredWfStatus,
): Loose {
  const { example, entitytype } = template;
  const langs = random() < 0.85 ? ['nl', 'en'] : ['nl'];
  const w = Math.floor(random() * WORDS_NL.length),
    k = Math.floor(random() * NOUNS_NL.length);
  const city = pick(random, CITIES);
  const body: Loose = {
    entitytype,
    trcid: `bench-${collection}-${n}`,
    userorganisation: owner,
    wfstatus,
    slug: `${WORDS_NL[w]!.toLowerCase()}-${NOUNS_NL[k]}-${city[0].toLowerCase()}-${n}`,
  };

  const details = (Array.isArray(example.trcItemDetails) ? example.trcItemDetails : []) as Loose[];
  body.trcItemDetails = langs.map((lang) => {
    const base = details.find((d) => d.lang === lang) ?? details[0] ?? {};
    const title =
      lang === 'nl' ? `${WORDS_NL[w]} ${NOUNS_NL[k]} ${city[0]} ${n}` : `${WORDS_EN[w]} ${NOUNS_EN[k]} ${city[0]} ${n}`;
    return { ...base, lang, title, shortdescription: `${title}: ${String(base.shortdescription ?? '').slice(0, 120)}` };
  });
  body.translations = { primaryLanguage: 'nl', availableLanguages: langs };

  const tree = palette.types[TREE_OF[entitytype]];
  const typeCount = 1 + (random() < 0.3 ? 1 : 0);
  // About 1 in 100 items names a catid no ontology knows: it comes back without translations.
  const types = Array.from({ length: typeCount }, (_, i) => ({
    catid: random() < 0.01 ? `9.9.${n % 50}` : pick(random, tree),
    isDefault: i === 0,
  }));
  const wanted = 3 + Math.floor(random() * 6);
  const chosen = new Set<OwnerPalette['properties'][number]>();
  while (chosen.size < Math.min(wanted, palette.properties.length)) chosen.add(pick(random, palette.properties));
  body.trcItemCategories = { types, categories: [...chosen].flatMap((p) => categoryValue(random, p, langs, n) ?? []) };

  const location = example.location as Loose | undefined;
  if (location !== undefined) {
    body.location = {
      ...location,
      // The position is the address's first point (DEC-ITEM-163).
      address: {
        ...(location.address as Loose | undefined),
        city: city[0],
        housenr: String(1 + (n % 300)),
        gisCoordinates: [
          {
            xcoordinate: (city[1] + (random() - 0.5) * 0.1).toFixed(6),
            ycoordinate: (city[2] + (random() - 0.5) * 0.06).toFixed(6),
          },
        ],
      },
    };
  }
  const calendar = example.calendar as Loose | undefined;
  if (calendar !== undefined)
    body.calendar =
      calendar.calendarType === 'ALWAYSOPEN' ? calendar : shiftCalendar(random, calendar, Math.floor(random() * 300));
  if (collection === 'events')
    body.trcitemRelation = { links: [{ linkType: 'parent', trcid: `bench-eventgroups-${n % 997}` }] };
  // The root strings the list filters owner, keywords and markers read (DEC-LIST-028, -029): one
  // of 50 editors per organisation, one to three keywords, a marker on about one item in ten.
  body.owner = `redactie${n % 50}@${owner}.example`;
  const keywordCount = 1 + Math.floor(random() * 3);
  body.keywords = [...new Set(Array.from({ length: keywordCount }, () => pick(random, KEYWORDS)))].join(',');
  if (random() < 0.1) body.markers = random() < 0.5 ? 'old' : 'old,review';
  return body;
}

/**
 * `calendar` moved by `shift` days, each single date extended with `singleDate`; half of the
 * patterned ones keep their (moved) pattern, the others become single dates only.
 */
export function shiftCalendar(random: () => number, calendar: Loose, shift: number, singleDate: Loose = {}): Loose {
  const shifted: Loose = {
    ...calendar,
    singleDates: ((calendar.singleDates ?? []) as Loose[]).map((d) => ({
      ...d,
      date: shiftDate(String(d.date), shift),
      ...singleDate,
    })),
  };
  if (Array.isArray(calendar.patternDates)) {
    if (random() < 0.5) {
      // Ongoing patterns (opening hours without dates) have nothing to move.
      shifted.patternDates = (calendar.patternDates as Loose[]).map((p) => ({
        ...p,
        ...(typeof p.startdate === 'string' ? { startdate: shiftDate(p.startdate, shift) } : {}),
        ...(typeof p.enddate === 'string' ? { enddate: shiftDate(p.enddate, shift) } : {}),
      }));
    } else {
      delete shifted.patternDates;
      shifted.calendarType = 'SINGLEDATES';
    }
  }
  return shifted;
}

export function shiftDate(text: string, days: number): string {
  const match = /^(\d{4}-\d{2}-\d{2})(.*)$/.exec(text);
  if (!match) return text;
  const date = new Date(`${match[1]}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return `${date.toISOString().slice(0, 10)}${match[2]}`;
}

// insertItem's NEXT_STAMP, for a run of $1 rows: the first stamp is GREATEST(last + 1, clock), each
// next one 1 ms later; the row lock on item_stamp keeps stamps in commit order, as for single writes.
// The rows travel as one JSON text parameter (jsonb_to_recordset): on PGlite that is several times
// faster than one text[] parameter per column (PGlite's array serialiser escapes every quote).
const BULK_INSERT = `WITH stamp AS (
  UPDATE item_stamp
     SET last_ms = GREATEST(last_ms + 1, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) + $1::bigint - 1
   RETURNING last_ms - $1::bigint + 1 AS first_ms
)
INSERT INTO items (id, trcid, entitytype, wfstatus, userorganisation, creationdate, lastupdated, external_id, title, slug, doc, rendered_body, rendered_key)
SELECT r.id, r.trcid, r.entitytype, r.wfstatus, r.userorganisation, t.at, t.at, NULL, r.title, r.slug, r.doc, r.rendered_body, r.rendered_key
  FROM stamp
 CROSS JOIN jsonb_to_recordset($2::text::jsonb)
       AS r(ord bigint, id uuid, trcid text, entitytype text, wfstatus text, userorganisation text, title text, slug text, doc jsonb,
            rendered_body text, rendered_key text)
 CROSS JOIN LATERAL (SELECT timestamptz 'epoch' + (stamp.first_ms + r.ord - 1) * interval '1 millisecond' AS at) t`;

export interface SeedOptions {
  items: number;
  /** Rows per INSERT statement. */
  batchSize?: number;
  seed?: number;
}

/** Seeds `items` items (the accounts must exist: seedAccounts). */
export async function seedItems(db: Db, options: SeedOptions): Promise<SeedSummary> {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const random = prng(options.seed ?? 20_270_814);
  const batchSize = options.batchSize ?? 2000;
  const templates = Object.fromEntries(
    (Object.keys(EXAMPLES) as Collection[]).map((c) => [c, templateOf(c)]),
  ) as Record<Collection, Template>;
  const ontologies = createOntologyCache(db);
  const owners = await ontologies.ontologiesForOrganisations(ORGANISATION_SHARES.map(([o]) => o));
  const palettes = new Map(
    [...owners].map(([organisation, ontologies]) => [organisation, paletteOf(ontologies.indexes)]),
  );
  const token = { organisations: 'all' as const, accountOrganisations: [] };
  const summary: SeedSummary = {
    items: 0,
    ms: 0,
    cpuMs: 0,
    itemsPerSecond: 0,
    avgDocBytes: 0,
    renderMs: 0,
    byCollection: {},
    byStatus: {},
    byOrganisation: {},
    batchSize,
  };
  let docBytes = 0;
  let batch: string[] = [];

  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    await db.query(BULK_INSERT, [rows.length, `[${rows.join(',')}]`]);
  };

  for (let n = 1; n <= options.items; n++) {
    const collection = weighted(random, COLLECTION_SHARES);
    const owner = weighted(random, ORGANISATION_SHARES);
    const wfstatus = weighted(random, STATUS_SHARES);
    const palette = palettes.get(owner)!;
    const template = templates[collection];
    // What writeItem stores: the prepared write, categories as the owner's property ontology keeps
    // them. Only the varied fields are prepared per item; the rest was prepared once per example.
    const prepared = prepareItemWrite({
      collection,
      body: variedBody(random, n, collection, template, owner, palette, wfstatus),
      token,
      stripCategories: stripCategoriesForWrite,
      newUuid: randomUUID,
    });
    const doc =
      prepared.doc.trcItemCategories === undefined
        ? prepared.doc
        : {
            ...prepared.doc,
            trcItemCategories: stripCategoriesForWrite(prepared.doc.trcItemCategories, palette.indexes.properties),
          };
    const docText = `{${template.staticMembers},${JSON.stringify(doc).slice(1)}`;
    docBytes += Buffer.byteLength(docText);
    // Rendered as writeItem renders it, and stored with it (migration 007).
    const renderingStarted = performance.now();
    const rendering = storedRenderingOf(
      prepared.entitytype,
      inJsonbOrder({ ...template.shared, ...doc }),
      owners.get(owner)!,
    );
    summary.renderMs += performance.now() - renderingStarted;
    const columns = JSON.stringify({
      ord: batch.length + 1,
      id: randomUUID(),
      trcid: prepared.trcid,
      entitytype: prepared.entitytype,
      wfstatus: prepared.wfstatus,
      userorganisation: prepared.userorganisation,
      title: prepared.title,
      slug: prepared.slug,
      rendered_body: rendering.body,
      rendered_key: rendering.key,
    });
    batch.push(`${columns.slice(0, -1)},"doc":${docText}}`);
    summary.byCollection[collection] = (summary.byCollection[collection] ?? 0) + 1;
    summary.byStatus[wfstatus] = (summary.byStatus[wfstatus] ?? 0) + 1;
    summary.byOrganisation[owner] = (summary.byOrganisation[owner] ?? 0) + 1;
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  // The service's renewal pass finds nothing to do: every rendering is current.
  const renewed = await refreshRenderings(db, ontologies);
  if (renewed !== 0) throw new Error(`seeding: ${renewed} of ${options.items} stored renderings were not current`);
  // A bulk load is followed by ANALYZE (as after a restore), so the planner knows the table.
  await db.exec('ANALYZE items');
  summary.items = options.items;
  summary.ms = performance.now() - started;
  summary.itemsPerSecond = options.items / (summary.ms / 1000);
  const cpu = process.cpuUsage(cpuStart);
  summary.cpuMs = (cpu.user + cpu.system) / 1000;
  summary.avgDocBytes = options.items === 0 ? 0 : Math.round(docBytes / options.items);
  return summary;
}

// Writes with unchanged content: each picked item gets the next stamp by the item stamp rule (its
// stored rendering holds no server columns, so it stays current, as after a write through the API).
const TOUCH = `WITH picked AS (
  SELECT id, row_number() OVER (ORDER BY id) AS ord
    FROM items
   WHERE wfstatus IN ('approved', 'archived', 'deleted')
   ORDER BY id
   LIMIT $1
), stamp AS (
  UPDATE item_stamp
     SET last_ms = GREATEST(last_ms + 1, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) + $1::bigint - 1
   RETURNING last_ms - $1::bigint + 1 AS first_ms
), touched AS (
  UPDATE items
     SET lastupdated = timestamptz 'epoch' + (stamp.first_ms + picked.ord - 1) * interval '1 millisecond'
    FROM picked, stamp
   WHERE items.id = picked.id
  RETURNING 1
)
SELECT count(*)::int AS n FROM touched`;

/** Gives `count` items a sync sees (approved, archived, deleted) a new lastupdated; returns how many. */
export async function touchItems(db: Db, count: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(TOUCH, [count]);
  return rows[0]!.n;
}
