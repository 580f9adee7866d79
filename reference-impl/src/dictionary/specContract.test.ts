import { describe, expect, it } from 'vitest';
import { fillItemCategories } from './fillItemCategories.ts';
import { filterDeprecated } from './filterDeprecated.ts';
import { indexOntologies } from './indexes.ts';
import { loadBaseOntologies, loadDataOverrides } from './loadData.ts';
import { specSchema } from '../../test/support/items/responseSchemas.ts';

// The data and the fill-in output against the published schemas (generated/openapi.json), so a
// drift between this module and the spec shows here before it shows in the conformance suite.

function assertValid(schemaName: string, value: unknown): void {
  const validate = specSchema(`/components/schemas/${schemaName}`);
  const ok = validate(value);
  expect(ok ? [] : validate.errors?.slice(0, 5)).toEqual([]);
}

const base = loadBaseOntologies();
const overrides = loadDataOverrides();
const stamp = '2025-06-02T08:00:00.000Z';

describe('dictionary data against the spec schemas', () => {
  it('the base type ontology, as answered by default and with deprecated nodes, is a CategorizationOntology [ONTO-011] [ONTO-012]', () => {
    assertValid('CategorizationOntology', filterDeprecated(base.types));
    assertValid('CategorizationOntology', base.types);
  });

  it('the base property ontology is a PropertiesOntology [ONTO-013]', () => {
    assertValid('PropertiesOntology', base.properties);
    // The schema does reject: without this the checks above could pass vacuously.
    expect(specSchema('/components/schemas/PropertiesOntology')({ propertyCategories: [{ id: 'pc-1' }] })).toBe(false);
  });

  it('every data override is a valid ontology once the server adds lastModified', () => {
    for (const doc of overrides.types.values()) assertValid('CategorizationOntology', { lastModified: stamp, ...doc });
    for (const doc of overrides.properties.values()) assertValid('PropertiesOntology', { lastModified: stamp, ...doc });
  });

  it('filled-in categories of every datatype are valid TrcItemCategories [ONTO-002] [ONTO-003]', () => {
    const filled = fillItemCategories(
      {
        types: [
          { catid: '1.1.1', isDefault: true },
          { catid: '9.9', isDefault: false },
        ],
        categories: [
          { catid: 'p-1002' },
          { catid: 'p-1001', value: 'true' },
          { catid: 'p-1003' },
          { catid: 'p-1101', valueid: 'o-2101' },
          { catid: 'p-1205', categoryvalues: [{ catid: 'o-2211' }, { catid: 'o-9999' }] },
          { catid: 'p-1206', value: 'x', categoryTranslations: [{ lang: 'en', value: 'y' }] },
          { catid: 'p-1104', value: '3' },
          { catid: 'p-1203', value: '2,5' },
          { catid: 'p-1204', value: '2024-01-01' },
          { catid: 'p-1005', value: '<b>x</b>' },
          { catid: 'p-1301', categoryTranslations: [{ lang: 'nl', value: 'https://example.nl/' }] },
          { catid: 'p-1302', value: 'a@example.nl' },
          { catid: 'p-1303', value: '+31 30 000 00 00' },
          { catid: 'p-9999', value: 'x' },
        ],
      },
      indexOntologies(base),
      ['nl', 'en', 'de'],
    );
    assertValid('TrcItemCategories', filled);
  });
});
