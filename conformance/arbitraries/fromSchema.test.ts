import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createValidatorFactory, formatErrors, loadSpec } from '../../spec/index.ts';
import { arbitraryFromSchema, flatten } from './fromSchema.ts';
import type { SchemaDocument } from './fromSchema.ts';

const doc = loadSpec().document as SchemaDocument;
const schemaAt = createValidatorFactory(doc);
const validatorOf = (name: string) => schemaAt(`/components/schemas/${name}`);
const schemaNames = Object.keys((doc.components as { schemas: object }).schemas);

describe('arbitraryFromSchema', () => {
  it.each(schemaNames)('when it generates %s (read mode), then every value is valid against the schema', (name) => {
    const validate = validatorOf(name);
    const arb = arbitraryFromSchema(
      doc,
      { $ref: `#/components/schemas/${name}` },
      { mode: 'read', maxItems: 2, maxDepth: 4 },
    );
    fc.assert(
      fc.property(arb, (value) => {
        if (!validate(value)) throw new Error(`${JSON.stringify(value)}: ${formatErrors(validate)}`);
      }),
      { numRuns: 30, seed: 42 },
    );
  });

  it('when a draft is generated in write mode, then it has no read-only or deprecated field', () => {
    const arb = arbitraryFromSchema(
      doc,
      { $ref: '#/components/schemas/EventDraft' },
      { mode: 'write', optional: 'all', maxDepth: 3 },
    );
    for (const value of fc.sample(arb, { numRuns: 20, seed: 3 }) as Record<string, unknown>[]) {
      for (const field of [
        'id',
        'creationdate',
        'lastupdated',
        'published',
        'deleted',
        'offline',
        'externalId',
        'isprivate',
      ])
        expect(value).not.toHaveProperty(field);
      expect(value).toHaveProperty('priceElements');
    }
  });

  it('when optional is none, then only required properties are generated', () => {
    const arb = arbitraryFromSchema(doc, { $ref: '#/components/schemas/Performer' }, { optional: 'none' });
    expect(new Set(fc.sample(arb, { numRuns: 10, seed: 1 }).map((v) => Object.keys(v as object).join()))).toEqual(
      new Set(['label']),
    );
  });

  it('when allOf narrows a property (location links), then the narrower enum wins', () => {
    const location = flatten(doc, { $ref: '#/components/schemas/LocationDraft' });
    const relation = flatten(doc, (location.properties as Record<string, Record<string, unknown>>).trcitemRelation!);
    const links = flatten(doc, (relation.properties as Record<string, Record<string, unknown>>).links!);
    const link = flatten(doc, links.items as Record<string, unknown>);
    expect(flatten(doc, (link.properties as Record<string, Record<string, unknown>>).linkType!).enum).toEqual([
      'alias',
      'comment',
    ]);
  });

  it('when paths are omitted or overridden, then the generated values follow', () => {
    const arb = arbitraryFromSchema(
      doc,
      { $ref: '#/components/schemas/RouteDraft' },
      {
        optional: 'all',
        maxDepth: 3,
        omit: ['/calendar', 'files'],
        overrides: { '/routeInfo/routeType': fc.constant('cycling') },
      },
    );
    for (const value of fc.sample(arb, { numRuns: 10, seed: 9 }) as Record<string, Record<string, unknown>>[]) {
      expect(value).not.toHaveProperty('calendar');
      expect(value).not.toHaveProperty('files');
      expect(value.routeInfo!.routeType).toBe('cycling');
    }
  });
});
