import { describe, expect, it } from 'vitest';
import { chooseOntologies } from './chooseOntologies.ts';
import { fillItemCategories } from './fillItemCategories.ts';
import { indexOntologies } from './indexes.ts';
import { loadBaseOntologies, loadDataOverrides } from './loadData.ts';

const base = loadBaseOntologies();

describe('chooseOntologies', () => {
  it('when an account has no override, then the base ontologies are used [ONTO-015]', () => {
    const chosen = chooseOntologies(base, {});
    expect(chosen.types).toBe(base.types);
    expect(chosen.properties).toBe(base.properties);
    expect(chosen.source).toEqual({ categorization: 'base', properties: 'base' });
  });

  it('when an account overrides one ontology, then that one is replaced whole and the other stays base [ONTO-015] [ONTO-016]', () => {
    const utrecht = { lastModified: '2025-03-01T00:00:00.000Z', ...loadDataOverrides().types.get('utrecht')! };
    const chosen = chooseOntologies(base, { types: utrecht, properties: null });
    expect(chosen.types).toBe(utrecht);
    expect(chosen.properties).toBe(base.properties);
    expect(chosen.source).toEqual({ categorization: 'account', properties: 'base' });
  });

  it('when an override leaves an id out, then the base is not consulted for it [ONTO-015] [ONTO-016]', () => {
    const minimal = {
      lastModified: '2025-03-01T00:00:00.000Z',
      propertyCategories: [
        {
          id: 'pc-1',
          name: 'Eigen',
          datatype: 'yes' as const,
          propertytranslations: [],
          properties: [
            {
              id: 'p-5001',
              name: 'Eigen vlag',
              datatype: 'yes' as const,
              propertytranslations: [{ lang: 'en', text: 'Own flag' }],
            },
          ],
        },
      ],
    };
    const indexes = indexOntologies(chooseOntologies(base, { properties: minimal }));
    const { categories } = fillItemCategories(
      { types: [], categories: [{ catid: 'p-1001', value: 'true' }, { catid: 'p-5001' }] },
      indexes,
      ['en'],
    );
    expect(categories).toEqual([
      { catid: 'p-1001', value: 'true' },
      { catid: 'p-5001', datatype: 'yes', value: 'True', categoryTranslations: [{ lang: 'en', label: 'Own flag' }] },
    ]);
  });
});
