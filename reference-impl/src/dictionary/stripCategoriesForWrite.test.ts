import { describe, expect, it } from 'vitest';
import { indexPropertyOntology } from './indexes.ts';
import { loadBaseOntologies } from './loadData.ts';
import { stripCategoriesForWrite } from './stripCategoriesForWrite.ts';

describe('stripCategoriesForWrite', () => {
  it('when a read item is written back, then only ids, values and per-language values are stored [ONTO-004] [ONTO-005]', () => {
    const read = {
      types: [{ catid: '1.2.2', isDefault: true, categoryTranslations: [{ lang: 'nl', label: 'Cabaret' }] }],
      categories: [
        {
          catid: 'p-1101',
          datatype: 'choice',
          value: 'Gratis parkeren',
          valueid: 'o-2101',
          categoryTranslations: [{ lang: 'nl', label: 'Parkeren' }],
          valueCategoryTranslations: [{ lang: 'nl', label: 'Gratis parkeren' }],
        },
        {
          catid: 'p-1205',
          datatype: 'multichoice',
          value: 'Contant',
          categoryvalues: [{ catid: 'o-2211', categoryTranslations: [{ lang: 'nl', label: 'Contant' }] }],
        },
        {
          catid: 'p-1206',
          datatype: 'freetext',
          value: 'Tekst',
          categoryTranslations: [
            { lang: 'nl', label: 'Bijzonderheden', value: 'Tekst' },
            { lang: 'en', label: 'Particulars' },
          ],
        },
      ],
    };
    expect(stripCategoriesForWrite(read)).toEqual({
      types: [{ catid: '1.2.2', isDefault: true }],
      categories: [
        { catid: 'p-1101', value: 'Gratis parkeren', valueid: 'o-2101' },
        { catid: 'p-1205', value: 'Contant', categoryvalues: [{ catid: 'o-2211' }] },
        { catid: 'p-1206', value: 'Tekst', categoryTranslations: [{ lang: 'nl', value: 'Tekst' }] },
      ],
    });
  });

  it('when isDefault is absent, then it is stored as false; scalar values are stored as strings', () => {
    expect(
      stripCategoriesForWrite({
        types: [{ catid: '1.1' }],
        categories: [
          { catid: 'p-1104', value: 12 },
          { catid: 'p-1001', value: true },
        ],
      }),
    ).toEqual({
      types: [{ catid: '1.1', isDefault: false }],
      categories: [
        { catid: 'p-1104', value: '12' },
        { catid: 'p-1001', value: 'true' },
      ],
    });
  });

  it('when entries have no catid or are not objects, then they are not stored', () => {
    expect(
      stripCategoriesForWrite({ types: [{ isDefault: true }, 'x'], categories: [{ value: 'Gratis parkeren' }, null] }),
    ).toEqual({ types: [], categories: [] });
    expect(stripCategoriesForWrite(undefined)).toEqual({ types: [], categories: [] });
  });

  it('when the ontology is known, then per-language values of properties other than freetext and url are dropped and data is stripped of HTML [DT-010]', () => {
    const properties = indexPropertyOntology(loadBaseOntologies().properties);
    const stored = stripCategoriesForWrite(
      {
        categories: [
          { catid: 'p-1001', value: 'true', categoryTranslations: [{ lang: 'nl', value: 'ja' }] },
          { catid: 'p-1301', categoryTranslations: [{ lang: 'en', value: 'https://example.nl/en/' }] },
          { catid: 'p-9999', categoryTranslations: [{ lang: 'en', value: 'kept: unknown datatype' }] },
          { catid: 'p-1005', value: '<p>Drempelvrij</p><script>x()</script>' },
        ],
      },
      properties,
    );
    expect(stored.categories).toEqual([
      { catid: 'p-1001', value: 'true' },
      { catid: 'p-1301', categoryTranslations: [{ lang: 'en', value: 'https://example.nl/en/' }] },
      { catid: 'p-9999', categoryTranslations: [{ lang: 'en', value: 'kept: unknown datatype' }] },
      { catid: 'p-1005', value: 'Drempelvrij' },
    ]);
  });
});
