import { collectionOf, isEntityType, type Collection } from '../domain/entityRules.ts';
import type { PropertyIndex } from '../dictionary/indexes.ts';
import { findUnstorable } from '../domain/unstorableJson.ts';
import { mapFeedCategories, type UnmappedCategory } from '../dictionary/mapCategoryLabel.ts';
import type { FeedDefinition } from './feedConfig.ts';
import { MAX_PARTNER_ID_LENGTH, type PartnerEntry } from './partnerEntries.ts';
import type { EntryValidator } from './validateEntry.ts';
import { isObject } from '../../../spec/json.ts';

// The convert phase: one partner entry → the write body of one item, or a reason it cannot be one.

export interface ConvertedEntry {
  externalId: string;
  collection: Collection;
  /** A write body: the entry without its feed fields, categories mapped, owned by the feed's organisation. */
  body: Record<string, unknown>;
  // @implements ONTO-009
  /** Plain-text categories that matched no category id (ONTO-009); the item is imported without them. */
  unmapped: UnmappedCategory[];
}

export type Conversion = { ok: true; entry: ConvertedEntry } | { ok: false; externalId?: string; message: string };

export interface ConvertContext {
  feed: FeedDefinition;
  validate: EntryValidator;
  /** The property ontology of the items' owner, for plain-text categories. */
  properties: PropertyIndex;
}

// @implements WF-006, FEED-001
// Fields of the partner format, not of the item: `id` is the partner's (DEC-FEED-001), and the
// status is the service's to set (WF-006, FEED-001, FEED-002), whatever the partner sent.
const FEED_ONLY_FIELDS = ['id', 'feedInfoId', 'wfstatus'];

export function convertEntry(entry: PartnerEntry, context: ConvertContext): Conversion {
  const { feed } = context;
  if (entry.partnerId === undefined)
    return { ok: false, message: `${entry.position} has no id (a non-empty string or integer)` };
  const externalId = `${feed.name}:${entry.partnerId}`;
  if (entry.partnerId.length > MAX_PARTNER_ID_LENGTH) {
    return {
      ok: false,
      // @implements ITEM-016
      externalId: externalId.slice(0, 300),
      message: `the id is longer than ${MAX_PARTNER_ID_LENGTH} characters`,
    };
  }
  if (typeof entry.raw !== 'object' || entry.raw === null || Array.isArray(entry.raw)) {
    return { ok: false, externalId, message: `${entry.position} is not a JSON object` };
  }
  const raw = entry.raw as Record<string, unknown>;
  // Before anything recursive reads it (the schema, the item rules): the check of request bodies.
  const unstorable = findUnstorable(raw);
  if (unstorable !== undefined)
    return { ok: false, externalId, message: `${unstorable.pointer || '(root)'} ${unstorable.message}` };
  const collection = collectionFor(raw.entitytype, feed);
  if (collection === undefined) {
    return {
      ok: false,
      externalId,
      message: `entitytype must be one of EVENEMENT, LOCATIE, EVENTGROUP, ROUTE, VENUE (received: ${JSON.stringify(raw.entitytype)})`,
    };
  }
  if (raw.userorganisation !== undefined && raw.userorganisation !== feed.userorganisation) {
    return {
      ok: false,
      externalId,
      message: `userorganisation must be absent or ${JSON.stringify(feed.userorganisation)}, the feed's (received: ${JSON.stringify(raw.userorganisation)})`,
    };
  }

  const { id: _id, feedInfoId: _feedInfoId, ...checked } = raw;
  const problem = context.validate(collection, checked);
  if (problem !== null) return { ok: false, externalId, message: problem };

  const body: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(raw)) if (!FEED_ONLY_FIELDS.includes(field)) body[field] = value;
  const unmapped: UnmappedCategory[] = [];
  const mapped = (holder: Record<string, unknown>): Record<string, unknown> => {
    if (!Array.isArray(holder.categories)) return holder;
    const result = mapFeedCategories(holder.categories, { properties: context.properties });
    unmapped.push(...result.unmapped);
    return { ...holder, categories: result.categories };
  };
  if (isObject(body.trcItemCategories)) body.trcItemCategories = mapped(body.trcItemCategories);
  // A venue's rooms carry categories too (DEC-ITEM-151).
  const relation = body.trcitemRelation;
  if (isObject(relation) && Array.isArray(relation.subItemGroups))
    body.trcitemRelation = {
      ...relation,
      subItemGroups: relation.subItemGroups.map((group) => (isObject(group) ? mapped(group) : group)),
    };
  body.userorganisation = feed.userorganisation;
  body.externalId = externalId;
  return { ok: true, entry: { externalId, collection, body, unmapped } };
}

function collectionFor(entitytype: unknown, feed: FeedDefinition): Collection | undefined {
  if (entitytype === undefined) return collectionOf(feed.entitytype);
  if (entitytype === 'EVENEMENTGROEP') return 'eventgroups'; // the name before May 2025 (DEC-ITEM-008)
  return isEntityType(entitytype) ? collectionOf(entitytype) : undefined;
}
