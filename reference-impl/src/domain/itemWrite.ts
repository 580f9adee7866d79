import { randomUUID } from 'node:crypto';
import { normaliseCalendarForWrite } from './calendar.ts';
import { normaliseLocationForWrite, normalisePoiLocationsForWrite } from './location.ts';
import { assertEntityRules, resolveWriteEntitytype, type Collection, type EntityType } from './entityRules.ts';
import { RuleViolation, ruleViolation } from './ruleViolation.ts';
import { normaliseWfstatus, type StoredWfStatus } from './workflow.ts';
import { isObject } from '../../../spec/json.ts';

// Turns a POST or PUT body (already checked against the spec: unknown root fields are refused
// there) into what storage keeps: the server columns and the document.

type Loose = Record<string, unknown>;

export interface WritingToken {
  /** Organisations whose items the token may write; 'all' for super admins (DEC-ITEM-007). */
  organisations: readonly string[] | 'all';
  /** The organisations of the token's account, in order: the first writable one is the default. */
  accountOrganisations: readonly string[];
  /** The writer's name for createdby/lastupdatedby (DEC-ITEM-171); absent: they are not set. */
  name?: string;
}

export interface PrepareItemWriteParams {
  collection: Collection;
  body: unknown;
  token: WritingToken;
  /** The stored item a PUT replaces; absent on create. */
  existing?: { trcid: string; userorganisation: string; externalId: string | null; doc?: Readonly<Loose> };
  /** Feed imports: the time of the import, stored as `lastimportedon` (DEC-ITEM-172). */
  importedAt?: string;
  /**
   * The part of the sent `trcItemCategories` that is stored (the dictionary's
   * stripCategoriesForWrite): the ontology's rules live outside domain/.
   */
  stripCategories: (trcItemCategories: unknown) => unknown;
  /** For tests: the UUID inside generated trcids. */
  newUuid?: () => string;
}

/** Columns and document of the write; the field names match storage's insertItem/updateItem. */
export interface PreparedItem {
  entitytype: EntityType;
  trcid: string;
  wfstatus: StoredWfStatus;
  userorganisation: string;
  externalId: string | null;
  slug: string | null;
  title: string | null;
  doc: Loose;
}

// @implements ITEM-018
// Fields kept in columns (not in the document) or set by the server (DEC-ITEM-005): the
// server-set ones are accepted in a body and ignored, so a GET-modify-PUT round trip works;
// `isprivate` is accepted and dropped (ITEM-018).
const COLUMN_FIELDS = ['trcid', 'entitytype', 'wfstatus', 'userorganisation', 'externalId', 'slug'];
// `eventLinks` is derived from an event group's links on read (DEC-ITEM-152).
const IGNORED_FIELDS = [
  'id',
  'creationdate',
  'lastupdated',
  'published',
  'deleted',
  'offline',
  'isprivate',
  'eventLinks',
];
// Set below from the writer and the stored item, whatever the body says, and kept in the document:
// reads show them (DEC-ITEM-171, DEC-ITEM-172).
const SERVER_SET_FIELDS = ['createdby', 'lastupdatedby', 'lastimportedon'];

// @implements ITEM-006
/** Fields a document never holds: kept in columns, set by the server, or dropped. */
export const SERVER_SIDE_FIELDS: readonly string[] = [...COLUMN_FIELDS, ...IGNORED_FIELDS];

// @implements ITEM-021
export function prepareItemWrite(params: PrepareItemWriteParams): PreparedItem {
  const { body, existing } = params;
  if (!isObject(body)) throw ruleViolation('/', `the request body must be a JSON object (received: ${describe(body)})`);
  assertNoNulCharacters(body, '');

  const entitytype = resolveWriteEntitytype(params.collection, body.entitytype);
  assertEntityRules(entitytype, body);
  const wfstatus = normaliseWfstatus(body.wfstatus);
  const trcid = resolveTrcid(body.trcid, existing, params.newUuid ?? randomUUID);
  const userorganisation = resolveUserorganisation(body.userorganisation, existing, params.token);
  const externalId = typeof body.externalId === 'string' ? body.externalId : (existing?.externalId ?? null);
  const slug = typeof body.slug === 'string' ? body.slug : null;

  const doc: Loose = {};
  for (const [field, value] of Object.entries(body)) {
    if (value === null || value === undefined) continue;
    if (COLUMN_FIELDS.includes(field) || IGNORED_FIELDS.includes(field) || SERVER_SET_FIELDS.includes(field)) continue;
    doc[field] = value;
  }
  if (doc.trcItemCategories !== undefined) doc.trcItemCategories = params.stripCategories(doc.trcItemCategories);
  if (doc.calendar !== undefined) doc.calendar = normaliseCalendarForWrite(doc.calendar);
  if (doc.location !== undefined) doc.location = normaliseLocationForWrite(doc.location);
  if (doc.routeInfo !== undefined) doc.routeInfo = normalisePoiLocationsForWrite(doc.routeInfo);
  if (isObject(doc.seoMetadata) && ('schemaOrgJsonLd' in doc.seoMetadata || 'schemaOrg' in doc.seoMetadata)) {
    // Derived on every read (DEC-ITEM-030); `schemaOrg` is the object responses carried before.
    const { schemaOrgJsonLd: _generated, schemaOrg: _former, ...seoMetadata } = doc.seoMetadata;
    doc.seoMetadata = seoMetadata;
  }
  assertOneDetailPerLanguage(doc.trcItemDetails);
  Object.assign(doc, serverSetFields(params));

  return { entitytype, trcid, wfstatus, userorganisation, externalId, slug, title: sortTitle(doc), doc };
}

/**
 * DEC-ITEM-171, DEC-ITEM-172: createdby is the first writer and stays; lastupdatedby is this
 * writer; lastimportedon is this import's time, else the stored one.
 */
function serverSetFields({ token, existing, importedAt }: PrepareItemWriteParams): Loose {
  const stored = existing?.doc ?? {};
  const fields: Loose = {};
  const createdby = existing === undefined ? token.name : (stored.createdby ?? undefined);
  if (typeof createdby === 'string') fields.createdby = createdby;
  if (token.name !== undefined) fields.lastupdatedby = token.name;
  const lastimportedon = importedAt ?? stored.lastimportedon;
  if (typeof lastimportedon === 'string') fields.lastimportedon = lastimportedon;
  return fields;
}

/**
 * The title lists sort on (DEC-LIST-003): the title in `translations.primaryLanguage`, else the
 * title of the first `trcItemDetails` entry; null when there is none.
 */
export function sortTitle(item: Readonly<Loose>): string | null {
  const details = Array.isArray(item.trcItemDetails) ? item.trcItemDetails.filter(isObject) : [];
  const primary = isObject(item.translations) ? item.translations.primaryLanguage : undefined;
  const inPrimary = primary === undefined ? undefined : details.find((d) => d.lang === primary);
  const title = (inPrimary ?? details[0])?.title;
  return typeof title === 'string' ? title : null;
}

/**
 * DEC-ITEM-006: generated when absent on create; fixed once stored. A sent trcid is stored in
 * Unicode NFC, and compared so: `trc-café` composed and decomposed are one trcid.
 */
function resolveTrcid(value: unknown, existing: PrepareItemWriteParams['existing'], newUuid: () => string): string {
  if (value !== undefined && value !== null && (typeof value !== 'string' || value.trim() === '')) {
    throw ruleViolation('/trcid', `trcid must be a non-empty string (received: ${describe(value)})`);
  }
  if (existing === undefined) return typeof value === 'string' ? value.normalize('NFC') : `trc-${newUuid()}`;
  if (typeof value === 'string' && value.normalize('NFC') !== existing.trcid.normalize('NFC')) {
    throw ruleViolation(
      '/trcid',
      `trcid cannot be changed (stored: ${JSON.stringify(existing.trcid)}, received: ${JSON.stringify(value)})`,
    );
  }
  return existing.trcid;
}

/**
 * DEC-ITEM-007: a sent organisation must be one the token may write (403 otherwise). Absent on
 * create: the first organisation of the token's account that it may write. Absent on PUT: the
 * stored one is kept (a full replacement keeps server-side ownership).
 */
function resolveUserorganisation(
  value: unknown,
  existing: PrepareItemWriteParams['existing'],
  token: WritingToken,
): string {
  const writable = (organisation: string) =>
    token.organisations === 'all' || token.organisations.includes(organisation);
  if (value !== undefined && value !== null) {
    if (typeof value !== 'string' || value === '')
      throw ruleViolation(
        '/userorganisation',
        `userorganisation must be a non-empty string (received: ${describe(value)})`,
      );
    if (!writable(value)) {
      throw new RuleViolation(
        `userorganisation ${JSON.stringify(value)} is not one of this token's organisations`,
        [{ pointer: '/userorganisation', message: "not one of this token's organisations" }],
        'forbidden',
      );
    }
    return value;
  }
  if (existing !== undefined) return existing.userorganisation;
  const fallback =
    token.accountOrganisations.find(writable) ?? (token.organisations === 'all' ? undefined : token.organisations[0]);
  if (fallback === undefined)
    throw ruleViolation(
      '/userorganisation',
      "userorganisation is required: the token's account has no organisation to default to",
    );
  return fallback;
}

function assertOneDetailPerLanguage(details: unknown): void {
  if (!Array.isArray(details)) return;
  const seen = new Map<unknown, number>();
  details.forEach((detail, index) => {
    const lang = isObject(detail) ? detail.lang : undefined;
    if (lang === undefined) return;
    const first = seen.get(lang);
    if (first !== undefined) {
      throw ruleViolation(
        `/trcItemDetails/${index}/lang`,
        `trcItemDetails holds one entry per language: ${JSON.stringify(lang)} appears at ${first} and ${index}`,
      );
    }
    seen.set(lang, index);
  });
}

/** PostgreSQL text and jsonb cannot hold U+0000: refuse it as a client error, not a storage failure. */
function assertNoNulCharacters(value: unknown, pointer: string): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000'))
      throw ruleViolation(
        pointer || '/',
        `${pointer || 'the body'} contains the character U+0000, which cannot be stored`,
      );
  } else if (Array.isArray(value)) {
    value.forEach((entry, index) => assertNoNulCharacters(entry, `${pointer}/${index}`));
  } else if (isObject(value)) {
    for (const [key, entry] of Object.entries(value)) {
      const path = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (key.includes('\u0000'))
        throw ruleViolation(
          pointer || '/',
          `a field name under ${pointer || 'the body'} contains the character U+0000, which cannot be stored`,
        );
      assertNoNulCharacters(entry, path);
    }
  }
}

function describe(value: unknown): string {
  return Array.isArray(value)
    ? 'an array'
    : value === null
      ? 'null'
      : typeof value === 'object'
        ? 'an object'
        : JSON.stringify(value);
}
