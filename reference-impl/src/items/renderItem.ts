import type { OntologyCache } from '../dictionary/ontologyCache.ts';
import { fillItemCategories } from '../dictionary/fillItemCategories.ts';
import type { OntologyIndexes } from '../dictionary/indexes.ts';
import { itemLanguages } from '../dictionary/languages.ts';
import type { StoredCategories } from '../dictionary/types.ts';
import { expandCalendar } from '../domain/calendar.ts';
import { formatTimestamp } from '../domain/timestamps.ts';
import { legacyFlags } from '../domain/workflow.ts';
import type { StoredItem } from '../storage/items/itemRow.ts';
import { schemaOrgOf } from './schemaOrg.ts';

// The response document of an item, for detail reads, lists and write answers alike
// (DEC-ITEM-002): the stored document plus the server columns, the legacy booleans derived from
// wfstatus (WF-010..013), the calendar normalised and expanded (DEC-ITEM-010/011) and the labels
// of types and categories from the ontologies of the account OWNING the item (ONTO-008), and the
// schema.org JSON-LD derived from the item (ITEM-010). Nothing
// computed here is stored, so every read shows the rules and ontologies in force now.

export type RenderedItem = Record<string, unknown>;

export interface RenderOptions {
  /** The events list's flag: only the stored single dates, not those computed from patterns. */
  excludePatternDates?: boolean;
  /** The owner's ontologies (`AccountOntologies.indexes`). */
  ontologies: OntologyIndexes;
}

export function renderItem(stored: StoredItem, options: RenderOptions): RenderedItem {
  const { doc } = stored;
  const rendered: RenderedItem = {
    id: stored.id,
    trcid: stored.trcid,
    entitytype: stored.entitytype,
    wfstatus: stored.wfstatus,
    ...legacyFlags(stored.wfstatus),
    creationdate: formatTimestamp(stored.creationdate),
    lastupdated: formatTimestamp(stored.lastupdated),
    userorganisation: stored.userorganisation,
  };
  if (stored.slug !== null) rendered.slug = stored.slug;
  if (stored.externalId !== null) rendered.externalId = stored.externalId;
  for (const [field, value] of Object.entries(doc)) {
    if (field in rendered) continue; // a server column always wins over a stray document field
    rendered[field] = value;
  }
  const calendar = isObject(doc.calendar) ? expandCalendar(doc.calendar) : undefined;
  if (calendar !== undefined) {
    rendered.calendar = options.excludePatternDates === true ? expandCalendar(doc.calendar as Record<string, unknown>, { excludePatternDates: true }) : calendar;
  }
  // Always present, derived from the item as it is now (ITEM-010); never stored.
  rendered.seoMetadata = { ...(isObject(doc.seoMetadata) ? doc.seoMetadata : {}), schemaOrg: schemaOrgOf(stored.entitytype, calendar === undefined ? doc : { ...doc, calendar }) };
  if (isObject(doc.trcItemCategories)) {
    rendered.trcItemCategories = fillItemCategories(doc.trcItemCategories as Partial<StoredCategories>, options.ontologies, itemLanguages(doc));
  }
  return rendered;
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
  return items.map((item) => renderItem(item, {
    excludePatternDates: options.excludePatternDates,
    ontologies: byOrganisation.get(item.userorganisation)!.indexes,
  }));
}

/** One item with its owner's ontologies. */
export async function renderOne(cache: OntologyCache, item: StoredItem, options: { excludePatternDates?: boolean } = {}): Promise<RenderedItem> {
  return (await renderItems(cache, [item], options))[0]!;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
