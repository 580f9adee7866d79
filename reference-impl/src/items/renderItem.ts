import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import type { components, Readable } from '../../../generated/types.ts';
import type { AccountOntologies, OntologyCache } from '../dictionary/ontologyCache.ts';
import { fillItemCategories } from '../dictionary/fillItemCategories.ts';
import { filledSubItemGroups } from '../dictionary/subItemGroupCategories.ts';
import type { OntologyIndexes } from '../dictionary/indexes.ts';
import { itemLanguages } from '../dictionary/languages.ts';
import type { StoredCategories } from '../domain/ontology.ts';
import { expandCalendar } from '../domain/calendar.ts';
import { eventLinksOf, type EntityType } from '../domain/entityRules.ts';
import { formatTimestamp } from '../domain/timestamps.ts';
import { SERVER_SIDE_FIELDS } from '../domain/itemWrite.ts';
import { legacyFlags } from '../domain/workflow.ts';
import type { StoredItem, StoredRendering } from '../storage/items/itemRow.ts';
import type { ListedItem } from '../storage/items/listItems.ts';
import { renderingKeyOf } from '../storage/items/renderingKey.ts';
import { schemaOrgOf } from './schemaOrg.ts';
import { isObject } from '../../../spec/json.ts';

// @implements ONTO-008, ITEM-010
// The response document of an item, for detail reads, lists and write answers alike
// (DEC-ITEM-002): the stored document plus the server columns, the legacy booleans derived from
// wfstatus (WF-010..013), the calendar normalised and expanded (DEC-ITEM-010/011) and the labels
// of types and categories, the item's and its sub-item groups', from the ontologies of the account
// OWNING the item (ONTO-008), an event group's eventLinks (DEC-ITEM-152) and the schema.org JSON-LD
// derived from the item (ITEM-010). A write stores the part rendered from the
// document with the item, keyed by this renderer's version and the owner's ontology versions
// (migration 007); lists use it only while that key is the one in force, so every read shows the
// rules and ontologies in force now.

type TrcItemCommon = Readable<components['schemas']['TrcItemCommon']>;

/** The members an item takes from the server columns, named and typed by the spec's TrcItemCommon. */
export type ServerFields = Required<
  Pick<
    TrcItemCommon,
    | 'id'
    | 'trcid'
    | 'wfstatus'
    | 'published'
    | typeof WORKFLOW_STATUS.deleted
    | 'offline'
    | 'creationdate'
    | 'lastupdated'
    | 'userorganisation'
  >
> &
  Pick<TrcItemCommon, 'slug' | 'externalId'> & { entitytype: EntityType };

/** The stored document's members and what is rendered from them (the document passed the schema on write). */
type RenderedBody = Record<string, unknown>;

/** The server fields, then the rendered body. */
export type RenderedItem = ServerFields & RenderedBody;

/**
 * Bump whenever what this module renders changes: stored renderings (migration 007) carry the
 * version they were made with, and older ones are rendered live until renewed.
 */
export const RENDERER_VERSION = 4;

export interface RenderOptions {
  /** The events list's flag: only the stored single dates, not those computed from patterns. */
  excludePatternDates?: boolean;
  /** The owner's ontologies (`AccountOntologies.indexes`). */
  ontologies: OntologyIndexes;
}

// The members written from the server columns on every read: a stray document field of the same
// name never shows (the write path keeps them out of documents anyway).
const SERVER_FIELDS = new Set(SERVER_SIDE_FIELDS);

// @implements ITEM-003, ITEM-005
export function renderItem(stored: StoredItem, options: RenderOptions): RenderedItem {
  return { ...renderServerFields(stored), ...renderBody(stored.entitytype, stored.doc, options) };
}

/** The members that come from the server columns, first in every rendered item. */
function renderServerFields(stored: Omit<StoredItem, 'doc'>): ServerFields {
  const fields: ServerFields = {
    id: stored.id,
    trcid: stored.trcid,
    entitytype: stored.entitytype,
    wfstatus: stored.wfstatus,
    ...legacyFlags(stored.wfstatus),
    creationdate: formatTimestamp(stored.creationdate),
    lastupdated: formatTimestamp(stored.lastupdated),
    userorganisation: stored.userorganisation,
  };
  if (stored.slug !== null) fields.slug = stored.slug;
  if (stored.externalId !== null) fields.externalId = stored.externalId;
  return fields;
}

/** The members that come from the document and the owner's ontologies: what a rendering stores. */
function renderBody(
  entitytype: EntityType,
  doc: Readonly<Record<string, unknown>>,
  options: RenderOptions,
): RenderedBody {
  const body: RenderedBody = {};
  for (const field in doc) {
    if (!SERVER_FIELDS.has(field)) body[field] = doc[field];
  }
  const calendar = isObject(doc.calendar) ? expandCalendar(doc.calendar) : undefined;
  if (calendar !== undefined) {
    body.calendar =
      options.excludePatternDates === true
        ? expandCalendar(doc.calendar as Record<string, unknown>, { excludePatternDates: true })
        : calendar;
  }
  // Always present, derived from the item as it is (ITEM-010, DEC-ITEM-030); never part of the document.
  body.seoMetadata = {
    ...(isObject(doc.seoMetadata) ? doc.seoMetadata : {}),
    schemaOrgJsonLd: JSON.stringify(schemaOrgOf(entitytype, calendar === undefined ? doc : { ...doc, calendar })),
  };
  if (isObject(doc.trcItemCategories)) {
    body.trcItemCategories = fillItemCategories(
      doc.trcItemCategories as Partial<StoredCategories>,
      options.ontologies,
      itemLanguages(doc),
    );
  }
  if (isObject(doc.trcitemRelation))
    body.trcitemRelation = filledSubItemGroups(doc.trcitemRelation, options.ontologies, itemLanguages(doc));
  const eventLinks = eventLinksOf(entitytype, doc);
  if (eventLinks !== undefined) body.eventLinks = eventLinks;
  return body;
}

/**
 * The rendering a write stores with the item (migration 007): the body's JSON members without
 * the braces, and the key of the renderer and the owner's ontology versions it was made with.
 */
export function storedRenderingOf(
  entitytype: EntityType,
  doc: Readonly<Record<string, unknown>>,
  owner: AccountOntologies,
): StoredRendering {
  const json = JSON.stringify(renderBody(entitytype, doc, { ontologies: owner.indexes }));
  return { body: json.slice(1, -1), key: renderingKeyOf(RENDERER_VERSION, owner.versions) };
}

/** An item's JSON from its server columns and a stored rendering's body. */
export function storedItemJson(item: Omit<StoredItem, 'doc'>, body: string): string {
  // The server columns' members, then the stored ones (never empty: seoMetadata is always there).
  return `${JSON.stringify(renderServerFields(item)).slice(0, -1)},${body}}`;
}

/**
 * A page of items, each with its owner's ontologies: one ontology lookup for the whole page (one
 * small versions query; parsed ontologies come from the cache), not one per item.
 */
export async function renderItems(
  cache: OntologyCache,
  items: readonly StoredItem[],
  options: { excludePatternDates?: boolean } = {},
): Promise<RenderedItem[]> {
  if (items.length === 0) return [];
  const byOrganisation = await cache.ontologiesForOrganisations(items.map((item) => item.userorganisation));
  return items.map((item) =>
    renderItem(item, {
      excludePatternDates: options.excludePatternDates,
      ontologies: byOrganisation.get(item.userorganisation)!.indexes,
    }),
  );
}

/** About the size of a socket write; the last piece of a page may be shorter. */
export const PAGE_CHUNK_CHARS = 64 * 1024;

/**
 * A list page as UTF-8 JSON, made as its rows arrive and its pieces are taken (about
 * PAGE_CHUNK_CHARS characters each): a sender writes one while the client reads the one before and
 * the database sends the next rows. Items with a current stored rendering are written from it and
 * their server columns; the others are rendered live, their owners' ontologies looked up once per
 * batch. The same text as `JSON.stringify(await renderItems(...))` of their stored items.
 * `onRenderedLive`: once the page is whole, how many items were rendered live.
 */
export async function* renderPage(
  cache: OntologyCache,
  batches: AsyncIterable<readonly ListedItem[]> | Iterable<readonly ListedItem[]>,
  onRenderedLive: (count: number) => void = () => {},
): AsyncGenerator<Buffer, void, undefined> {
  let text = '[';
  let first = true;
  let live = 0;
  for await (const items of batches) {
    const liveOwners = items.filter((item) => item.renderedBody === null).map((item) => item.userorganisation);
    const byOrganisation = liveOwners.length === 0 ? undefined : await cache.ontologiesForOrganisations(liveOwners);
    live += liveOwners.length;
    for (const item of items) {
      const json =
        item.renderedBody === null
          ? JSON.stringify(renderItem(item, { ontologies: byOrganisation!.get(item.userorganisation)!.indexes }))
          : storedItemJson(item, item.renderedBody);
      text += first ? json : `,${json}`;
      first = false;
      if (text.length >= PAGE_CHUNK_CHARS) {
        yield Buffer.from(text);
        text = '';
      }
    }
  }
  yield Buffer.from(`${text}]`);
  onRenderedLive(live);
}
