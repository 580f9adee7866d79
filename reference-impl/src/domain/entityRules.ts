import {
  COLLECTIONS,
  ENTITY_TYPE,
  ENTITY_TYPES,
  RESOURCE_TYPES,
  WEBHOOK_EVENT_NAMES,
  type Collection,
  type EntityType,
} from '../../../generated/constants.ts';
import { RuleViolation, ruleViolation, type RuleViolationDetail } from './ruleViolation.ts';
import { isObject } from '../../../spec/json.ts';

// Which entity type lives where, and which fields and links each type may carry.

// @implements ITEM-028
// Collection path segment → the one entity type it holds (ITEM-028), from the spec.
export { COLLECTIONS, ENTITY_TYPES, type Collection, type EntityType };
// `resourceType` of webhook items (HOOK-001) and the stem of the event names (HOOK-005), from the spec.
export { RESOURCE_TYPES, WEBHOOK_EVENT_NAMES };

// @implements VER-002
/** Names accepted on write for an entity type, from before a rename (VER-002, May 2025). */
const FORMER_NAMES: Readonly<Record<string, EntityType>> = { EVENEMENTGROEP: ENTITY_TYPE.EVENTGROUP };

// @implements ITEM-001, ITEM-004
export function isEntityType(value: unknown): value is EntityType {
  return typeof value === 'string' && (ENTITY_TYPES as readonly string[]).includes(value);
}

function isCollection(name: string): name is Collection {
  return Object.hasOwn(COLLECTIONS, name);
}

/** The item collections (path segments), in the spec's order. */
export const COLLECTION_NAMES: readonly Collection[] = Object.keys(COLLECTIONS).filter(isCollection);

export function entitytypeOf(collection: Collection): EntityType {
  return COLLECTIONS[collection];
}

export function collectionOf(entitytype: EntityType): Collection {
  return COLLECTION_NAMES.find((c) => COLLECTIONS[c] === entitytype)!;
}

/**
 * The entity type a write to `collection` stores: the collection's own. A body may repeat it, or
 * send `EVENEMENTGROEP` to /eventgroups (stored as EVENTGROUP); any other value is a 400 (DEC-ITEM-008).
 */
export function resolveWriteEntitytype(collection: Collection, value: unknown): EntityType {
  const expected = COLLECTIONS[collection];
  if (value === undefined || value === expected) return expected;
  if (typeof value === 'string' && FORMER_NAMES[value] === expected) return expected;
  throw ruleViolation(
    '/entitytype',
    `entitytype must be ${expected} on /${collection} (received: ${JSON.stringify(value)})`,
  );
}

// @implements ITEM-011, ITEM-012, ITEM-013, ITEM-014, ITEM-023, ITEM-027
/**
 * Root fields that only one entity type carries (DEC-ITEM-015). A venue has no field of its own:
 * its capacity properties are categories (DEC-ITEM-150). An event group's `eventLinks` are
 * read-only, derived from its links (DEC-ITEM-152).
 */
const ENTITY_ONLY_FIELDS = {
  priceElements: ENTITY_TYPE.EVENEMENT,
  extrapriceinformations: ENTITY_TYPE.EVENEMENT,
  promotions: ENTITY_TYPE.EVENEMENT,
  performers: ENTITY_TYPE.EVENEMENT,
  routeInfo: ENTITY_TYPE.ROUTE,
  eventLinks: ENTITY_TYPE.EVENTGROUP,
} as const satisfies Record<string, EntityType>;

const LINK_TYPES = ['child', 'parent', 'alias', 'comment', 'related'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

// @implements ITEM-015, ITEM-025, ITEM-026
// @implements ITEM-024
/** Link types an entity type may use: locations only `alias` and `comment` (DEC-ITEM-013, ITEM-024). */
export function allowedLinkTypes(entitytype: EntityType): readonly LinkType[] {
  return entitytype === ENTITY_TYPE.LOCATIE ? ['alias', 'comment'] : LINK_TYPES;
}

/**
 * Every field and link of `body` that its entity type may not carry, as one 400 that names each
 * (DEC-ITEM-013, DEC-ITEM-015). Returns quietly when there is none.
 */
export function assertEntityRules(entitytype: EntityType, body: Readonly<Record<string, unknown>>): void {
  const details: RuleViolationDetail[] = [];
  for (const [field, owner] of Object.entries(ENTITY_ONLY_FIELDS)) {
    if (body[field] !== undefined && owner !== entitytype) {
      details.push({
        pointer: `/${field}`,
        message: `${field} is a ${owner} field; a ${entitytype} item cannot carry it`,
      });
    }
  }
  const relation = body.trcitemRelation;
  const links = isObject(relation) ? relation.links : undefined;
  if (Array.isArray(links)) {
    const allowed: readonly string[] = allowedLinkTypes(entitytype);
    links.forEach((link, index) => {
      const linkType = isObject(link) ? link.linkType : undefined;
      if (typeof linkType !== 'string' || !allowed.includes(linkType)) {
        details.push({
          pointer: `/trcitemRelation/links/${index}/linkType`,
          message: `linkType must be one of ${allowed.join(', ')} on a ${entitytype} item (received: ${JSON.stringify(linkType)})`,
        });
      }
    });
  }
  if (details.length === 0) return;
  throw new RuleViolation(
    details.length === 1
      ? details[0]!.message
      : `${details.length} fields are not allowed on a ${entitytype} item: ${details.map((d) => d.pointer).join(', ')}`,
    details,
  );
}

// @implements ITEM-026
/**
 * An event group's `eventLinks` in the operator's model's form (DEC-ITEM-152): one `{eventId}` per
 * `child` link of its `trcitemRelation`, in order, `eventId` being the linked trcid; undefined
 * for another entity type or a group without child links.
 */
export function eventLinksOf(
  entitytype: EntityType,
  doc: Readonly<Record<string, unknown>>,
): Array<{ eventId: string }> | undefined {
  if (entitytype !== ENTITY_TYPE.EVENTGROUP || !isObject(doc.trcitemRelation)) return undefined;
  const links = Array.isArray(doc.trcitemRelation.links) ? doc.trcitemRelation.links : [];
  const events = links.flatMap((link) =>
    isObject(link) && link.linkType === 'child' && typeof link.trcid === 'string' ? [{ eventId: link.trcid }] : [],
  );
  return events.length > 0 ? events : undefined;
}
