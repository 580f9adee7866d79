import fc from 'fast-check';
import { ENTITY_TYPE } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { DRAFT_SCHEMA, trcItemDraft } from '../../arbitraries/trcItemDraft.ts';
import type { DraftOntology, EntityType } from '../../arbitraries/trcItemDraft.ts';
import { assertProperty } from '../../support/property.ts';
import { assertStatus } from '../../support/assert.ts';
import { COLLECTIONS } from '../../support/collections.ts';
import { createItem, putItem, readItem } from '../../support/items.ts';
import { findOwnOrganisation } from '../../support/organisations.ts';
import { listItems } from '../../support/lists.ts';
import { ownerOntologies, propertyNodes, typeNodes } from '../../support/ontology.ts';
import type { Item } from '../../support/itemTypes.ts';
import { firstMismatch } from '../../support/preserved.ts';
import type { Exchange } from '../../model/exchange.ts';
import type { HttpResponse } from '../../http/httpClient.ts';
import { isObject } from '../../../spec/json.ts';
import { joinPointer } from '../../../spec/index.ts';
import type { CheckContext } from '../../engine/runtime/context.ts';

const MAX_RUNS = 10;
const TREE: Record<EntityType, string> = {
  EVENEMENT: ENTITY_TYPE.EVENEMENT,
  EVENTGROUP: ENTITY_TYPE.EVENEMENT,
  LOCATIE: ENTITY_TYPE.LOCATIE,
  VENUE: ENTITY_TYPE.LOCATIE,
  ROUTE: ENTITY_TYPE.ROUTE,
};
/** Requirements about the fields of each entity type, for a mismatch at a given top-level field. */
const FIELD_REQUIREMENT: Record<string, string> = {
  trcItemDetails: 'ITEM-007',
  location: 'ITEM-008',
  translations: 'ITEM-009',
  seoMetadata: 'ITEM-010',
  priceElements: 'ITEM-011',
  promotions: 'ITEM-012',
  performers: 'ITEM-013',
  routeInfo: 'ITEM-014',
  trcitemRelation: 'ITEM-015',
  calendar: 'ITEM-019',
  trcItemCategories: 'ONTO-004',
};

/** The fields each entity type's own statement names, for a mismatch on an item of that type. */
const ENTITY_FIELDS: Record<EntityType, { requirement: string; fields: readonly string[] }> = {
  EVENEMENT: {
    requirement: 'ITEM-023',
    fields: ['priceElements', 'promotions', 'performers', 'trcitemRelation', 'calendar'],
  },
  LOCATIE: { requirement: 'ITEM-024', fields: ['calendar', 'trcitemRelation'] },
  VENUE: { requirement: 'ITEM-025', fields: ['trcitemRelation'] },
  EVENTGROUP: { requirement: 'ITEM-026', fields: ['trcitemRelation', 'calendar', 'location', 'seoMetadata'] },
  ROUTE: { requirement: 'ITEM-027', fields: ['routeInfo'] },
};

export default defineCheck({
  id: 'properties.round-trip',
  title:
    "Property: a generated draft of any entity type (only writable fields, valid per its draft schema, catids from the owner's ontology) reads back with every field preserved after POST, and again after a PUT of another draft, which replaces it",
  requirements: [
    'WRITE-001',
    'WRITE-002',
    'ITEM-007',
    'ITEM-008',
    'ITEM-009',
    'ITEM-010',
    'ITEM-011',
    'ITEM-012',
    'ITEM-013',
    'ITEM-014',
    'ITEM-015',
    'ITEM-019',
    'ITEM-020',
    'ITEM-023',
    'ITEM-024',
    'ITEM-025',
    'ITEM-026',
    'ITEM-027',
    'ONTO-004',
    'DEC-ITEM-001',
    'DEC-ITEM-013',
    'DEC-ITEM-151',
    'DEC-ITEM-016',
  ],
  tags: ['items', 'property', 'write'],
  needs: ['write'],
  writes: `up to ${MAX_RUNS} generated items of random entity types (tagged with the run id in trcid, slug and title), more while a failure shrinks`,
  run: async (ctx) => {
    const org =
      (await findOwnOrganisation(ctx)) ??
      String((await listItems(ctx, '/events', { size: 1 })).items[0]?.userorganisation);
    const onto = await ownerOntologies(ctx, org);
    const freetextPropertyIds = propertyNodes(onto.properties)
      .filter((p) => p.datatype === 'freetext' && p.deprecated !== true)
      .map((p) => p.id)
      .slice(0, 10);
    const ontologyOf = (t: EntityType): DraftOntology => ({
      typeCatids: typeNodes(onto.categorization)
        .filter((n) => n.tree === TREE[t] && n.deprecated !== true)
        .map((n) => n.cnetID)
        .slice(0, 20),
      freetextPropertyIds,
    });
    const tagTitles = (draft: Record<string, unknown>) => {
      const details = draft.trcItemDetails as { title?: string }[] | undefined;
      if (details?.[0]?.title !== undefined) details[0].title = `${ctx.runId} ${details[0].title}`;
      return draft;
    };
    const pair = fc.constantFrom(...COLLECTIONS).chain((c) => {
      const arb = trcItemDraft(ctx.spec.document, {
        entitytype: c.entitytype as EntityType,
        ontology: ontologyOf(c.entitytype as EntityType),
        maxItems: 2,
        maxDepth: 4,
      }).map(tagTitles);
      return fc.tuple(fc.constant(c), arb, arb);
    });

    await assertProperty(
      ctx,
      fc.asyncProperty(pair, async ([collection, first, second]) => {
        const entitytype = collection.entitytype as EntityType;
        const decided: Decided = (pointer) => ctx.spec.validator.decidedAt?.(DRAFT_SCHEMA[entitytype], pointer) ?? [];
        // A target that shapes the places our decisions shape otherwise may refuse ours: then the
        // draft is written without them, and that is a deviation.
        const withoutOurShapes = (draft: Record<string, unknown>, refusal: HttpResponse) => {
          const plain = withoutDecided(draft, decided);
          if (plain)
            ctx.deviation(
              plain.decisions,
              {
                kind: 'body',
                message: `${refusal.exchange.request.method} refused a draft with places the interface leaves open in our shape; written again without them`,
                received: refusal.status,
                expected: '2xx',
              },
              refusal.exchange,
            );
          return plain?.draft;
        };
        let sentFirst = first;
        const created = await createItem(ctx, collection.path, first, {
          label: 'property',
          requirements: ['WRITE-001'],
          onRefused: (refusal) => {
            const plain = withoutOurShapes(first, refusal);
            if (plain) sentFirst = plain;
            return plain;
          },
        });
        expectPreserved(
          ctx,
          decided,
          sentFirst,
          created.item,
          `POST ${collection.path} then a detail read`,
          created.created.exchange,
          'WRITE-001',
          entitytype,
        );
        const identity = {
          trcid: created.trcid,
          slug: created.body.slug,
          userorganisation: created.body.userorganisation,
        };
        let sentSecond = second;
        let put = await putItem(ctx, created, { ...second, ...identity });
        const plainSecond = put.status >= 400 && put.status < 500 ? withoutOurShapes(second, put) : undefined;
        if (plainSecond) {
          put.assertConforms(['WRITE-002']);
          sentSecond = plainSecond;
          put = await putItem(ctx, created, { ...plainSecond, ...identity });
        }
        assertStatus(put, 200, { requirements: ['WRITE-002', 'DEC-ITEM-001'] });
        put.assertConforms(['WRITE-002']);
        const { res, item } = await readItem(ctx, created.path, created.token);
        assertStatus(res, 200, { requirements: ['WRITE-002'] });
        res.assertConforms(['WRITE-002']);
        expectPreserved(
          ctx,
          decided,
          sentSecond,
          item!,
          `PUT ${created.path} then a detail read`,
          res.exchange,
          'WRITE-002',
          entitytype,
        );
        // A full replacement (DEC-ITEM-001): fields of the first draft that the second leaves out are gone.
        const stale = Object.keys(sentFirst).find(
          (k) => !(k in sentSecond) && item![k] !== undefined && k !== 'entitytype' && !serverComputedOnly(k, item![k]),
        );
        if (stale)
          throw new CheckFailure({
            message: `PUT ${created.path} without ${stale} kept the ${stale} of the earlier write (a PUT replaces every writable field)`,
            received: item![stale],
            expected: '(absent)',
            pointer: `/${stale}`,
            requirements: ['DEC-ITEM-001'],
            exchanges: [put.exchange, res.exchange],
          });
      }),
      { numRuns: Math.min(ctx.fc.numRuns, MAX_RUNS) },
    );
  },
});

/** The decisions a place of a draft belongs to (none: the interface speaks there). */
type Decided = (pointer: string) => string[];

/** `draft` without the places our decisions shape, and those decisions; undefined when it has none. */
function withoutDecided(
  draft: Record<string, unknown>,
  decided: Decided,
): { draft: Record<string, unknown>; decisions: string[] } | undefined {
  const decisions = new Set<string>();
  const keep = (pointer: string) => {
    const ids = decided(pointer);
    for (const id of ids) decisions.add(id);
    return ids.length === 0;
  };
  const strip = (value: unknown, pointer: string): unknown => {
    if (Array.isArray(value))
      return value.flatMap((v, i) => (keep(`${pointer}/${i}`) ? [strip(v, `${pointer}/${i}`)] : []));
    if (!isObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value).flatMap(([k, v]) =>
        keep(joinPointer(pointer, k)) ? [[k, strip(v, joinPointer(pointer, k))]] : [],
      ),
    );
  };
  const plain = strip(draft, '') as Record<string, unknown>;
  return decisions.size > 0 ? { draft: plain, decisions: [...decisions].sort() } : undefined;
}

/** What the server fills in by itself when the client sent nothing: schema.org data, a normalised calendarType, the calendar's flags. */
function serverComputedOnly(field: string, value: unknown): boolean {
  const own: Record<string, string[]> = {
    seoMetadata: ['schemaOrgJsonLd'],
    calendar: ['calendarType', 'cancelled', 'soldout', 'excludeholidays'],
  };
  return (
    field in own &&
    value !== null &&
    typeof value === 'object' &&
    Object.keys(value).every((k) => own[field]!.includes(k))
  );
}

/**
 * Every field sent is read back. A field the interface does not name, or a value of ours it leaves
 * open, read back otherwise or not at all differs from our decisions only: a deviation, and the
 * rest is compared.
 */
function expectPreserved(
  ctx: CheckContext,
  decidedAt: Decided,
  sent: Record<string, unknown>,
  received: Item,
  what: string,
  exchange: Exchange,
  fallback: string,
  entitytype: EntityType,
): void {
  const first = firstMismatch(sent, received);
  if (!first) return;
  const decisions = decidedAt(first.pointer);
  if (decisions.length > 0)
    ctx.deviation(
      decisions,
      {
        kind: 'body',
        message: `${what}: ${first.pointer}, a place the interface leaves open, reads back otherwise`,
        pointer: first.pointer,
        received: first.received,
        expected: first.sent,
      },
      exchange,
    );
  const mismatch = decisions.length > 0 ? firstMismatch(sent, received, '', (p) => decidedAt(p).length > 0) : first;
  if (!mismatch) return;
  const field = mismatch.pointer.split('/')[1] ?? '';
  const own = ENTITY_FIELDS[entitytype];
  throw new CheckFailure({
    message: `${what}: ${mismatch.pointer} is not what was written`,
    received: mismatch.received === undefined ? '(absent)' : mismatch.received,
    expected: mismatch.sent,
    pointer: mismatch.pointer,
    requirements: [
      fallback,
      ...(FIELD_REQUIREMENT[field] ? [FIELD_REQUIREMENT[field]!] : []),
      ...(own.fields.includes(field) ? [own.requirement] : []),
    ],
    exchanges: [exchange],
  });
}
