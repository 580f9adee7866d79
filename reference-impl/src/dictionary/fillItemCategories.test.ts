import { describe, expect, it } from 'vitest';
import { fillItemCategories } from './fillItemCategories.ts';
import { indexOntologies } from './indexes.ts';
import { loadBaseOntologies, loadDataOverrides } from './loadData.ts';
import { stripCategoriesForWrite } from './stripCategoriesForWrite.ts';
import type { PropertyOntology, StoredCategory, TypeOntology } from '../domain/ontology.ts';

const base = indexOntologies(loadBaseOntologies());
const NL_EN_DE = ['nl', 'en', 'de'];

function fillOne(category: StoredCategory, languages = NL_EN_DE) {
  const [filled] = fillItemCategories({ types: [], categories: [category] }, base, languages).categories;
  return filled;
}

describe('fillItemCategories: types', () => {
  it('when an item has a type, then its labels are filled in for each item language [ONTO-002]', () => {
    const { types } = fillItemCategories(
      { types: [{ catid: '1.1.1', isDefault: true }], categories: [] },
      base,
      NL_EN_DE,
    );
    expect(types).toEqual([
      {
        catid: '1.1.1',
        isDefault: true,
        categoryTranslations: [
          { lang: 'nl', label: 'Klassieke muziek' },
          { lang: 'en', label: 'Classical music' },
          { lang: 'de', label: 'Klassische Musik' },
        ],
      },
    ]);
  });

  it('when a language has no label, then the Dutch label is used; a region falls back to its language [DEC-DICT-006]', () => {
    const { types } = fillItemCategories({ types: [{ catid: '2.1.1', isDefault: false }], categories: [] }, base, [
      'fr',
      'en-GB',
    ]);
    expect(types[0]?.categoryTranslations).toEqual([
      { lang: 'fr', label: 'Kunstmuseum' },
      { lang: 'en-GB', label: 'Art museum' },
    ]);
  });

  it('when a type id is not in the ontology, then it comes back without translations [ONTO-007]', () => {
    const { types } = fillItemCategories(
      { types: [{ catid: '9.9.9', isDefault: true }], categories: [] },
      base,
      NL_EN_DE,
    );
    expect(types).toEqual([{ catid: '9.9.9', isDefault: true }]);
  });

  it('when a type node is deprecated, then existing items still get its labels (deprecated is not removed)', () => {
    const { types } = fillItemCategories({ types: [{ catid: '1.10', isDefault: true }], categories: [] }, base, ['en']);
    expect(types[0]?.categoryTranslations).toEqual([{ lang: 'en', label: 'Funfair' }]);
  });
});

describe('fillItemCategories: categories by datatype', () => {
  it('when a yes category is present, then datatype yes, value True and the property labels are filled in [DT-001] [ONTO-003]', () => {
    expect(fillOne({ catid: 'p-1002' })).toEqual({
      catid: 'p-1002',
      datatype: 'yes',
      value: 'True',
      categoryTranslations: [
        { lang: 'nl', label: 'Aangepast toilet' },
        { lang: 'en', label: 'Accessible toilet' },
        { lang: 'de', label: 'Barrierefreie Toilette' },
      ],
    });
  });

  it('when a yes category says false, then value is False [DT-001]', () => {
    expect(fillOne({ catid: 'p-1102', value: 'false' })?.value).toBe('False');
  });

  it('when a yesno category holds true or false, then value is True or False [DT-002]', () => {
    expect(fillOne({ catid: 'p-1001', value: 'true' })).toMatchObject({ datatype: 'yesno', value: 'True' });
    expect(fillOne({ catid: 'p-1001', value: 'false' })).toMatchObject({ datatype: 'yesno', value: 'False' });
  });

  it('when a nullableyesno category has no value, then value is null; true and false read True and False [DT-003]', () => {
    expect(fillOne({ catid: 'p-1003' })).toMatchObject({ datatype: 'nullableyesno', value: null });
    expect(fillOne({ catid: 'p-1003', value: 'true' })?.value).toBe('True');
    expect(fillOne({ catid: 'p-1003', value: 'false' })?.value).toBe('False');
  });

  it('when a choice names an option, then value is its Dutch label and valueCategoryTranslations its labels [DT-004] [DEC-DICT-008]', () => {
    expect(fillOne({ catid: 'p-1101', valueid: 'o-2102' })).toEqual({
      catid: 'p-1101',
      datatype: 'choice',
      value: 'Betaald parkeren',
      valueid: 'o-2102',
      categoryTranslations: [
        { lang: 'nl', label: 'Parkeren' },
        { lang: 'en', label: 'Parking' },
        { lang: 'de', label: 'Parken' },
      ],
      valueCategoryTranslations: [
        { lang: 'nl', label: 'Betaald parkeren' },
        { lang: 'en', label: 'Paid parking' },
        { lang: 'de', label: 'Gebührenpflichtiges Parken' },
      ],
    });
  });

  it('when a choice sent a stale label as value, then value is the ontology label [DT-004] [ONTO-005]', () => {
    expect(fillOne({ catid: 'p-1101', valueid: 'o-2101', value: 'gratis!!' })?.value).toBe('Gratis parkeren');
  });

  it('when a choice names an option of another property, then it gets no option labels', () => {
    const filled = fillOne({ catid: 'p-1101', valueid: 'o-2211' });
    expect(filled).toMatchObject({ catid: 'p-1101', datatype: 'choice', value: null, valueid: 'o-2211' });
    expect(filled?.valueCategoryTranslations).toBeUndefined();
  });

  it('when a multichoice lists options, then value joins their Dutch labels with ";" and each entry gets labels [DT-005] [DEC-DICT-008]', () => {
    expect(
      fillOne({ catid: 'p-1205', categoryvalues: [{ catid: 'o-2211' }, { catid: 'o-2213' }] }, ['nl', 'en']),
    ).toEqual({
      catid: 'p-1205',
      datatype: 'multichoice',
      value: 'Contant;Creditcard',
      categoryvalues: [
        {
          catid: 'o-2211',
          categoryTranslations: [
            { lang: 'nl', label: 'Contant' },
            { lang: 'en', label: 'Cash' },
          ],
        },
        {
          catid: 'o-2213',
          categoryTranslations: [
            { lang: 'nl', label: 'Creditcard' },
            { lang: 'en', label: 'Credit card' },
          ],
        },
      ],
      categoryTranslations: [
        { lang: 'nl', label: 'Betaalmogelijkheden' },
        { lang: 'en', label: 'Payment methods' },
      ],
      valueCategoryTranslations: [
        { lang: 'nl', label: 'Contant;Creditcard' },
        { lang: 'en', label: 'Cash;Credit card' },
      ],
    });
  });

  it('when a multichoice lists an unknown option, then that entry has no labels and is not in value [DT-005] [ONTO-007]', () => {
    const filled = fillOne({ catid: 'p-1004', categoryvalues: [{ catid: 'o-9999' }, { catid: 'o-2002' }] }, ['de']);
    expect(filled?.value).toBe('Lift');
    expect(filled?.categoryvalues).toEqual([
      { catid: 'o-9999' },
      { catid: 'o-2002', categoryTranslations: [{ lang: 'de', label: 'Aufzug' }] },
    ]);
    expect(filled?.valueCategoryTranslations).toEqual([{ lang: 'de', label: 'Aufzug' }]);
  });

  it('when a freetext has per-language values, then each language carries its label and its value [DT-006]', () => {
    expect(
      fillOne({
        catid: 'p-1206',
        value: 'Ingang via de tuin',
        categoryTranslations: [
          { lang: 'nl', value: 'Ingang via de tuin' },
          { lang: 'en', value: 'Entrance through the garden' },
        ],
      }),
    ).toEqual({
      catid: 'p-1206',
      datatype: 'freetext',
      value: 'Ingang via de tuin',
      categoryTranslations: [
        { lang: 'nl', label: 'Bijzonderheden', value: 'Ingang via de tuin' },
        { lang: 'en', label: 'Particulars', value: 'Entrance through the garden' },
        { lang: 'de', label: 'Besonderheiten' },
      ],
    });
  });

  it('when an integer is stored, then value is a whole number string [DT-007]', () => {
    expect(fillOne({ catid: 'p-1104', value: '+040' })).toMatchObject({ datatype: 'integer', value: '40' });
  });

  it('when a decimal is stored with a decimal comma, then value uses a dot [DT-008]', () => {
    expect(fillOne({ catid: 'p-1203', value: '1,5' })).toMatchObject({ datatype: 'decimal', value: '1.5' });
  });

  it('when a date is stored, then value is the ISO date [DT-009]', () => {
    expect(fillOne({ catid: 'p-1204', value: '1998-04-01' })).toMatchObject({ datatype: 'date', value: '1998-04-01' });
  });

  it('when data holds HTML, then value is stripped of it [DT-010]', () => {
    expect(fillOne({ catid: 'p-1005', value: '<p>Drempelvrij <a href="https://x">info</a></p>' })).toMatchObject({
      datatype: 'data',
      value: 'Drempelvrij info',
    });
  });

  it('when a url has per-language URLs, then they are in categoryTranslations[].value [DT-011]', () => {
    const filled = fillOne(
      {
        catid: 'p-1301',
        categoryTranslations: [
          { lang: 'nl', value: 'https://example.nl/' },
          { lang: 'en', value: 'https://example.nl/en/' },
        ],
      },
      ['nl', 'en'],
    );
    expect(filled).toEqual({
      catid: 'p-1301',
      datatype: 'url',
      value: null,
      categoryTranslations: [
        { lang: 'nl', label: 'Website', value: 'https://example.nl/' },
        { lang: 'en', label: 'Website', value: 'https://example.nl/en/' },
      ],
    });
  });

  it('when a url value exists in a language the item does not list, then it is still returned after the item languages', () => {
    const filled = fillOne(
      { catid: 'p-1304', categoryTranslations: [{ lang: 'fr', value: 'https://example.nl/fr/' }] },
      ['nl'],
    );
    expect(filled?.categoryTranslations).toEqual([
      { lang: 'nl', label: 'Reserveringslink' },
      { lang: 'fr', label: 'Reserveringslink', value: 'https://example.nl/fr/' },
    ]);
  });

  it('when an email and a phone are stored, then value is the address and the number [DT-012] [DT-013]', () => {
    expect(fillOne({ catid: 'p-1302', value: 'info@example.nl' })).toMatchObject({
      datatype: 'email',
      value: 'info@example.nl',
    });
    expect(fillOne({ catid: 'p-1303', value: '+31 30 123 45 67' })).toMatchObject({
      datatype: 'phone',
      value: '+31 30 123 45 67',
    });
  });

  it('when a category id is not in the ontology, then it comes back as stored, without translations and datatype [ONTO-007]', () => {
    expect(fillOne({ catid: 'p-9999', value: 'x', categoryTranslations: [{ lang: 'nl', value: 'y' }] })).toEqual({
      catid: 'p-9999',
      value: 'x',
    });
  });

  it('when a sub-property or a deprecated property is used, then it is filled in like any other', () => {
    expect(fillOne({ catid: 'p-1107', value: '4' }, ['en'])).toEqual({
      catid: 'p-1107',
      datatype: 'integer',
      value: '4',
      categoryTranslations: [{ lang: 'en', label: 'Number of charging points' }],
    });
    expect(fillOne({ catid: 'p-1108' }, ['en'])).toMatchObject({
      datatype: 'yes',
      categoryTranslations: [{ lang: 'en', label: 'Smoking area' }],
    });
    expect(fillOne({ catid: 'p-1103', categoryvalues: [{ catid: 'o-2115' }] }, ['en'])?.value).toBe('Snackbar');
  });
});

describe('fillItemCategories: the ontology in force', () => {
  it('when the ontology renames an entry, then the next fill shows the new label for the same stored item [ONTO-006]', () => {
    const stored = {
      types: [{ catid: '1.1.2', isDefault: true }],
      categories: [{ catid: 'p-1101', valueid: 'o-2101' }],
    };
    const before = fillItemCategories(stored, base, ['en']);
    const renamed = structuredClone(loadBaseOntologies()) as { types: TypeOntology; properties: PropertyOntology };
    const node = renamed.types.categorizations[0]?.child?.[0]?.child?.[1];
    const option = renamed.properties.propertyCategories[1]?.properties[0]?.options?.[0];
    if (!node || !option) throw new Error('fixture moved');
    node.categorizationTranslations = [{ lang: 'en', label: 'Pop' }];
    option.propertytranslations = [
      { lang: 'nl', text: 'Parkeren gratis' },
      { lang: 'en', text: 'Parking free of charge' },
    ];
    const after = fillItemCategories(stored, indexOntologies(renamed), ['nl', 'en']);
    expect(before.types[0]?.categoryTranslations).toEqual([{ lang: 'en', label: 'Pop and rock' }]);
    expect(after.types[0]?.categoryTranslations).toEqual([
      { lang: 'nl', label: 'Pop en rock' },
      { lang: 'en', label: 'Pop' },
    ]);
    expect(after.categories[0]?.value).toBe('Parkeren gratis');
    expect(after.categories[0]?.valueCategoryTranslations?.[1]).toEqual({
      lang: 'en',
      label: 'Parking free of charge',
    });
  });

  it('when labels were sent on write, then they are not stored and the read shows the ontology labels [ONTO-005] [ONTO-004]', () => {
    const written = stripCategoriesForWrite({
      types: [{ catid: '2.3.1', isDefault: true, categoryTranslations: [{ lang: 'nl', label: 'Mijn hotel' }] }],
      categories: [
        {
          catid: 'p-1208',
          datatype: 'freetext',
          valueid: 'o-2224',
          value: 'vier',
          categoryTranslations: [{ lang: 'nl', label: 'Mijn sterren' }],
          valueCategoryTranslations: [{ lang: 'nl', label: 'Mijn vier' }],
        },
      ],
    });
    const read = fillItemCategories(written, base, ['nl']);
    expect(read.types[0]?.categoryTranslations).toEqual([{ lang: 'nl', label: 'Hotel' }]);
    expect(read.categories[0]).toEqual({
      catid: 'p-1208',
      datatype: 'choice',
      value: '4 sterren',
      valueid: 'o-2224',
      categoryTranslations: [{ lang: 'nl', label: 'Sterren' }],
      valueCategoryTranslations: [{ lang: 'nl', label: '4 sterren' }],
    });
  });

  it('when filled with an account override, then its labels apply and ids it left out have none [ONTO-008] [ONTO-015]', () => {
    const utrecht = loadDataOverrides().types.get('utrecht');
    if (!utrecht) throw new Error('utrecht override missing');
    const indexes = indexOntologies({
      types: { lastModified: '2025-01-01T00:00:00.000Z', ...utrecht },
      properties: loadBaseOntologies().properties,
    });
    const stored = {
      types: [
        { catid: '1.1.2', isDefault: true },
        { catid: '2.5.3', isDefault: false },
        { catid: '1.1.7', isDefault: false },
      ],
      categories: [],
    };
    expect(fillItemCategories(stored, indexes, ['nl']).types).toEqual([
      { catid: '1.1.2', isDefault: true, categoryTranslations: [{ lang: 'nl', label: 'Popmuziek' }] },
      { catid: '2.5.3', isDefault: false },
      { catid: '1.1.7', isDefault: false, categoryTranslations: [{ lang: 'nl', label: 'Oude muziek' }] },
    ]);
    expect(fillItemCategories(stored, base, ['nl']).types[0]?.categoryTranslations).toEqual([
      { lang: 'nl', label: 'Pop en rock' },
    ]);
  });

  it('when nothing is stored, then both lists are empty', () => {
    expect(fillItemCategories(undefined, base, ['nl'])).toEqual({ types: [], categories: [] });
  });
});
