import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createValidatorFactory, formatErrors, loadSpec } from '../../spec/index.ts';
import type { SchemaDocument } from './fromSchema.ts';
import { DRAFT_SCHEMA, trcItemDraft } from './trcItemDraft.ts';
import type { EntityType } from './trcItemDraft.ts';

const doc = loadSpec().document as SchemaDocument;
const schemaAt = createValidatorFactory(doc);

const ENTITY_TYPES = Object.keys(DRAFT_SCHEMA) as EntityType[];
const ontology = { typeCatids: ['1.1.1', '1.2'], freetextPropertyIds: ['p-1206', 'p-1305'] };

describe('trcItemDraft', () => {
  it.each(ENTITY_TYPES)(
    'when a %s draft is generated, then it is valid against its draft schema and keeps the rules the schema cannot say',
    (entitytype) => {
      const validate = schemaAt(DRAFT_SCHEMA[entitytype]);
      fc.assert(
        fc.property(trcItemDraft(doc, { entitytype, ontology, patternDates: true }), (draft) => {
          if (!validate(draft)) throw new Error(`${JSON.stringify(draft)}: ${formatErrors(validate)}`);
          expect(draft.entitytype).toBe(entitytype);
          const langs = ((draft.trcItemDetails ?? []) as { lang: string }[]).map((d) => d.lang);
          expect(new Set(langs).size).toBe(langs.length);
          for (const p of (draft.calendar as { patternDates?: { startdate: string; enddate: string }[] } | undefined)
            ?.patternDates ?? [])
            expect(p.enddate >= p.startdate).toBe(true);
          for (const field of ['trcid', 'slug', 'userorganisation', 'wfstatus', 'id', 'published', 'isprivate'])
            expect(draft).not.toHaveProperty(field);
        }),
        { numRuns: 40, seed: 7 },
      );
    },
  );

  it('when no ontology is given, then the draft has no categories; with one, only its ids', () => {
    for (const d of fc.sample(trcItemDraft(doc, { entitytype: 'EVENEMENT', optional: 'all' }), {
      numRuns: 10,
      seed: 2,
    }))
      expect(d).not.toHaveProperty('trcItemCategories');
    for (const d of fc.sample(trcItemDraft(doc, { entitytype: 'LOCATIE', optional: 'all', ontology }), {
      numRuns: 10,
      seed: 2,
    })) {
      const cats = d.trcItemCategories as { types: { catid: string }[]; categories?: { catid: string }[] };
      for (const t of cats.types) expect(ontology.typeCatids).toContain(t.catid);
      for (const c of cats.categories ?? []) expect(ontology.freetextPropertyIds).toContain(c.catid);
    }
  });

  it('when the same seed is used twice, then the same drafts come back (replayable)', () => {
    const a = fc.sample(trcItemDraft(doc, { entitytype: 'ROUTE' }), { numRuns: 5, seed: 99 });
    const b = fc.sample(trcItemDraft(doc, { entitytype: 'ROUTE' }), { numRuns: 5, seed: 99 });
    expect(a).toEqual(b);
  });
});
