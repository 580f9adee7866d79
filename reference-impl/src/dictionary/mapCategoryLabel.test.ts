import { describe, expect, it } from 'vitest';
import { indexOntologies, indexPropertyOntology } from './indexes.ts';
import { loadBaseOntologies } from './loadData.ts';
import { labelKey, mapCategoryLabel, mapFeedCategories } from './mapCategoryLabel.ts';
import type { PropertyOntology } from '../domain/ontology.ts';

const ontologies = indexOntologies(loadBaseOntologies());

describe('mapCategoryLabel', () => {
  it('when a plain text value is a Dutch property label, then it maps to that property [ONTO-009]', () => {
    expect(mapCategoryLabel('Rolstoeltoegankelijk', ontologies)).toEqual({
      mapped: true,
      lang: 'nl',
      match: { kind: 'property', propertyId: 'p-1001', datatype: 'yesno' },
    });
  });

  it('when a plain text value is a Dutch option label, then it maps to the option and its property [ONTO-009]', () => {
    expect(mapCategoryLabel('Gratis parkeren', ontologies)).toEqual({
      mapped: true,
      lang: 'nl',
      match: { kind: 'option', propertyId: 'p-1101', optionId: 'o-2101', datatype: 'choice' },
    });
  });

  it('when case, diacritics and punctuation differ, then it still maps [ONTO-009]', () => {
    expect(mapCategoryLabel('  CAFE ', ontologies)).toMatchObject({ mapped: true, match: { optionId: 'o-2112' } });
    expect(mapCategoryLabel('rolstoel-toegankelijk', ontologies)).toMatchObject({
      mapped: true,
      match: { propertyId: 'p-1001' },
    });
    expect(mapCategoryLabel('oplaadpunt voor elektrische autos', ontologies)).toMatchObject({
      mapped: true,
      match: { propertyId: 'p-1106' },
    });
  });

  it('when a label is not Dutch, then other languages are tried after Dutch [ONTO-009]', () => {
    expect(mapCategoryLabel('Wheelchair accessible', ontologies)).toMatchObject({
      mapped: true,
      lang: 'other',
      match: { propertyId: 'p-1001' },
    });
    expect(mapCategoryLabel('Kreditkarte', ontologies)).toMatchObject({
      mapped: true,
      lang: 'other',
      match: { optionId: 'o-2213' },
    });
  });

  it('when a label is Dutch for one entry and another language for another, then Dutch wins [ONTO-009]', () => {
    const doc: PropertyOntology = {
      lastModified: '2025-01-01T00:00:00.000Z',
      propertyCategories: [
        {
          id: 'pc-1',
          name: 'X',
          datatype: 'yes',
          propertytranslations: [],
          properties: [
            { id: 'p-1', name: 'Lift', datatype: 'yes', propertytranslations: [{ lang: 'nl', text: 'Lift' }] },
            {
              id: 'p-2',
              name: 'Hijsinstallatie',
              datatype: 'yes',
              propertytranslations: [{ lang: 'en', text: 'Lift' }],
            },
          ],
        },
      ],
    };
    expect(mapCategoryLabel('lift', { properties: indexPropertyOntology(doc) })).toMatchObject({
      mapped: true,
      match: { propertyId: 'p-1' },
    });
  });

  it('when a label fits several entries in the same language, then it is reported as ambiguous, not guessed', () => {
    const doc: PropertyOntology = {
      lastModified: '2025-01-01T00:00:00.000Z',
      propertyCategories: [
        {
          id: 'pc-1',
          name: 'X',
          datatype: 'yes',
          propertytranslations: [],
          properties: [
            { id: 'p-1', name: 'Restaurant', datatype: 'yes', propertytranslations: [] },
            {
              id: 'p-2',
              name: 'Horeca',
              datatype: 'multichoice',
              propertytranslations: [],
              options: [{ id: 'o-1', name: 'Restaurant', propertytranslations: [] }],
            },
          ],
        },
      ],
    };
    expect(mapCategoryLabel('Restaurant', { properties: indexPropertyOntology(doc) })).toEqual({
      mapped: false,
      text: 'Restaurant',
      reason: 'ambiguous',
      candidates: ['p-1', 'o-1'],
    });
  });

  it('when a label fits nothing or only deprecated entries, then it is reported unmapped [ONTO-009]', () => {
    expect(mapCategoryLabel('Zwembad', ontologies)).toEqual({ mapped: false, text: 'Zwembad', reason: 'unknown' });
    expect(mapCategoryLabel('Rookruimte', ontologies)).toMatchObject({ mapped: false, reason: 'unknown' });
    expect(mapCategoryLabel('Snackbar', ontologies)).toMatchObject({ mapped: false, reason: 'unknown' });
  });

  it('labelKey folds case, diacritics, spaces and punctuation', () => {
    expect(labelKey(' Café–Restaurant  "De Haan" ')).toBe('caferestaurantdehaan');
    expect(labelKey('Büchermarkt')).toBe('buchermarkt');
  });
});

describe('mapFeedCategories', () => {
  it('when a feed sends plain text categories, then they become stored entries and the rest is reported [ONTO-009]', () => {
    const result = mapFeedCategories(
      [
        { catid: 'p-1302', value: 'info@example.nl' },
        { value: 'Gratis parkeren' },
        { value: 'Contant' },
        { value: 'Pinnen' },
        { value: 'contant' },
        { value: 'Wifi' },
        { value: 'Huisdieren toegestaan' },
        { value: 'Bijzonderheden' },
        { value: 'Zwembad' },
        { value: '' },
      ],
      ontologies,
    );
    expect(result.categories).toEqual([
      { catid: 'p-1302', value: 'info@example.nl' },
      { catid: 'p-1101', valueid: 'o-2101' },
      { catid: 'p-1205', categoryvalues: [{ catid: 'o-2211' }, { catid: 'o-2212' }] },
      { catid: 'p-1102' },
      { catid: 'p-1105', value: 'true' },
    ]);
    expect(result.unmapped).toEqual([
      { text: 'Bijzonderheden', reason: 'not-a-flag', candidates: ['p-1206'] },
      { text: 'Zwembad', reason: 'unknown' },
    ]);
  });
});
