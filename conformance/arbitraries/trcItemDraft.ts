// A TRCItem draft of one entity type, as a client writes it: only writable fields, valid against
// the draft schema (EventDraft, LocationDraft, …), with the rules the schema cannot say kept too
// (one trcItemDetails entry per language, pattern end not before its start). Categories come
// from the target's own ontology, or are left out.
//
//   fc.sample(trcItemDraft(doc, { entitytype: 'EVENEMENT', ontology: { typeCatids: ['1.1.1'] } }), 1)

import fc from 'fast-check';
import { ENTITY_TYPE, type EntityType } from '../../generated/constants.ts';
import { arbitraryFromSchema } from './fromSchema.ts';
import type { SchemaConstraints, SchemaDocument } from './fromSchema.ts';

export type { EntityType };

export const DRAFT_SCHEMA: Record<EntityType, string> = {
  EVENEMENT: '#/components/schemas/EventDraft',
  LOCATIE: '#/components/schemas/LocationDraft',
  VENUE: '#/components/schemas/VenueDraft',
  EVENTGROUP: '#/components/schemas/EventGroupDraft',
  ROUTE: '#/components/schemas/RouteDraft',
};

export interface DraftOntology {
  /** cnetIDs of the type ontology for this entity type (the LOCATIE tree for venues). */
  typeCatids: readonly string[];
  /** Property ids of datatype freetext: their `value` is stored as written. */
  freetextPropertyIds?: readonly string[];
}

export interface TrcItemDraftConstraints extends SchemaConstraints {
  entitytype: EntityType;
  /** Ids from the target's ontology; without it the draft has no trcItemCategories. */
  ontology?: DraftOntology;
  /** Include calendar.patternDates (the server then adds computed days to singleDates). Default false. */
  patternDates?: boolean;
  /** Leave out trcid, slug, userorganisation and wfstatus (the suite sets them). Default true. */
  leaveIdentityOut?: boolean;
}

const LANGS = ['nl', 'en', 'de', 'fr', 'fy', 'en-GB'];
const DAY: Readonly<Record<string, number>> = { SU: 1, MO: 2, TU: 3, WE: 4, TH: 5, FR: 6, SA: 7 };

function localDate(): fc.Arbitrary<string> {
  return fc
    .date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));
}

export function trcItemDraft(
  doc: SchemaDocument,
  constraints: TrcItemDraftConstraints,
): fc.Arbitrary<Record<string, unknown>> {
  const { entitytype, ontology, patternDates = false, leaveIdentityOut = true, ...schemaConstraints } = constraints;
  const omit = [...(schemaConstraints.omit ?? [])];
  if (leaveIdentityOut) omit.push('/trcid', '/slug', '/userorganisation', '/wfstatus');
  if (!patternDates) omit.push('/calendar/patternDates');
  // A room's type and categories are labelled like the item's: from the ontology, or left out.
  if (!ontology)
    omit.push('/trcItemCategories', '/trcitemRelation/subItemGroups/type', '/trcitemRelation/subItemGroups/categories');

  const overrides: Record<string, fc.Arbitrary<unknown>> = { ...schemaConstraints.overrides };
  const text = (max: number) =>
    fc.string({
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJéü&<>-.,'),
      minLength: 1,
      maxLength: max,
    });
  // One entry per language (DEC-ITEM-022); at least one, so the item has a title.
  overrides['/trcItemDetails'] ??= fc
    .uniqueArray(fc.constantFrom(...LANGS), { minLength: 1, maxLength: Math.min(3, schemaConstraints.maxItems ?? 3) })
    .chain((langs) =>
      fc.tuple(
        ...langs.map((lang) =>
          fc.record(
            { lang: fc.constant(lang), title: text(40), shortdescription: text(60), longdescription: text(80) },
            { requiredKeys: ['lang', 'title'] },
          ),
        ),
      ),
    );
  overrides['/translations'] ??= fc
    .uniqueArray(fc.constantFrom(...LANGS), { minLength: 1, maxLength: 3 })
    .map((langs) => ({ primaryLanguage: langs[0], availableLanguages: langs }));
  if (patternDates) {
    overrides['/calendar/patternDates'] ??= fc.array(
      fc
        .tuple(
          localDate(),
          fc.integer({ min: 0, max: 20 }),
          fc.uniqueArray(fc.constantFrom('MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'), { maxLength: 3 }),
        )
        .map(([start, days, weekdays]) => {
          const end = new Date(Date.parse(`${start}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
          // The operator's model's form (DEC-ITEM-010): opens[].day 1 = Sunday … 7 = Saturday.
          return weekdays.length > 0
            ? {
                startdate: start,
                enddate: end,
                recurrencyType: 'weekly',
                opens: weekdays.map((d) => ({ day: DAY[d] })),
              }
            : { startdate: start, enddate: end };
        }),
      { maxLength: 2 },
    );
  }
  // Calendar dates that exist (a pattern alone can write 2027-02-30, which is a 400, DEC-ITEM-023).
  overrides['#/components/schemas/CalendarDate'] ??= fc
    .tuple(localDate(), fc.constantFrom('', 'T00:00:00', 'T20:15:00'))
    .map(([day, time]) => `${day}${time}`);
  if (ontology) {
    const { types, categories } = categoryListsFrom(ontology);
    overrides['/trcItemCategories'] ??= fc
      .record({ types, categories })
      .map(({ types, categories }) => (categories.length > 0 ? { types, categories } : { types }));
    if (ontology.typeCatids.length > 0)
      overrides['/trcitemRelation/subItemGroups/type'] ??= fc
        .constantFrom(...ontology.typeCatids)
        .map((catid) => ({ catid, isDefault: true }));
    else omit.push('/trcitemRelation/subItemGroups/type');
    overrides['/trcitemRelation/subItemGroups/categories'] ??= categories;
  }

  const draft = arbitraryFromSchema(
    doc,
    { $ref: DRAFT_SCHEMA[entitytype] },
    { mode: 'write', numbers: 'cents', ...schemaConstraints, omit, overrides },
  );
  const typed = draft.map((value): Record<string, unknown> => ({ ...(value as Record<string, unknown>), entitytype }));
  if (entitytype !== ENTITY_TYPE.ROUTE) return typed;
  // A route is a path with waypoints (ITEM-027): every generated route has some.
  const waypoints = arbitraryFromSchema(
    doc,
    { type: 'array', minItems: 2, maxItems: 3, items: { $ref: '#/components/schemas/LatLng' } },
    { mode: 'write', numbers: 'cents' },
  );
  return fc.tuple(typed, waypoints).map(([route, routeCoordinates]) => {
    const info = (route.routeInfo ?? {}) as Record<string, unknown>;
    const plotted = Array.isArray(info.routeCoordinates) && info.routeCoordinates.length > 0;
    return plotted ? route : { ...route, routeInfo: { ...info, routeCoordinates } };
  });
}

/** Types and categories of the ontology's ids, as trcItemCategories holds them. */
function categoryListsFrom(ontology: DraftOntology): {
  types: fc.Arbitrary<ReadonlyArray<{ catid: string; isDefault: boolean }>>;
  categories: fc.Arbitrary<ReadonlyArray<{ catid: string; value: string }>>;
} {
  const types =
    ontology.typeCatids.length === 0
      ? fc.constant([])
      : fc
          .uniqueArray(fc.constantFrom(...ontology.typeCatids), { minLength: 1, maxLength: 2 })
          .map((ids) => ids.map((catid, i) => ({ catid, isDefault: i === 0 })));
  const freetext = ontology.freetextPropertyIds ?? [];
  const categories =
    freetext.length === 0
      ? fc.constant([])
      : fc
          .uniqueArray(fc.constantFrom(...freetext), { maxLength: 2 })
          .chain((ids) =>
            fc.tuple(
              ...ids.map((catid) =>
                fc
                  .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz '), minLength: 1, maxLength: 30 })
                  .map((value) => ({ catid, value })),
              ),
            ),
          );
  return { types, categories };
}
