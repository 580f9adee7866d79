import { describe, expect, it } from 'vitest';
import { indexOntologies } from './indexes.ts';
import { loadBaseOntologies } from './loadData.ts';
import { filledSubItemGroups, withStoredCategories } from './subItemGroupCategories.ts';

const ontologies = indexOntologies(loadBaseOntologies());

describe('withStoredCategories', () => {
  it('when a document has categories and sub-item groups, then both keep only ids and values, and the rest of each group as written [ONTO-004] [DEC-ITEM-151]', () => {
    const doc = {
      trcItemCategories: {
        categories: [{ catid: 'p-1501', value: '900', datatype: 'text', categoryTranslations: [] }],
      },
      trcitemRelation: {
        links: [{ linkType: 'child', trcid: 'trc-e' }],
        subItemGroups: [
          {
            trcid: 'trc-zaal',
            type: { catid: '2.8.1', isDefault: true, categoryTranslations: [{ lang: 'nl', label: 'x' }] },
            categories: [
              { catid: 'p-1601', value: '120', categoryTranslations: [{ lang: 'nl', label: 'x', value: 'y' }] },
              { value: 'no id' },
            ],
            subItemTranslations: [{ lang: 'nl', title: 'Zaal' }],
            media: [{ hlink: 'https://example.com/zaal.jpg' }],
          },
          { type: { isDefault: true } },
          'not an object',
        ],
      },
      calendar: { calendarType: 'NONE' },
    };
    expect(withStoredCategories(doc, ontologies.properties)).toEqual({
      trcItemCategories: { types: [], categories: [{ catid: 'p-1501', value: '900' }] },
      trcitemRelation: {
        links: [{ linkType: 'child', trcid: 'trc-e' }],
        subItemGroups: [
          {
            trcid: 'trc-zaal',
            type: { catid: '2.8.1', isDefault: true },
            categories: [{ catid: 'p-1601', value: '120' }],
            subItemTranslations: [{ lang: 'nl', title: 'Zaal' }],
            media: [{ hlink: 'https://example.com/zaal.jpg' }],
          },
          {},
          'not an object',
        ],
      },
      calendar: { calendarType: 'NONE' },
    });
  });

  it('when a document has neither, then it is returned as it is', () => {
    expect(withStoredCategories({ trcitemRelation: { links: [] } })).toEqual({ trcitemRelation: { links: [] } });
  });
});

describe('filledSubItemGroups', () => {
  it("when groups are read, then their type and categories carry the owner's labels in the item's languages [DEC-ITEM-151] [ONTO-007]", () => {
    const relation = {
      subItemGroups: [
        {
          type: { catid: '2.8.1', isDefault: false },
          categories: [
            { catid: 'p-1605', value: '64' },
            { catid: 'p-9999', value: 'unknown' },
          ],
        },
        { subItemTranslations: [{ lang: 'en', title: 'Foyer' }] },
      ],
    };
    expect(filledSubItemGroups(relation, ontologies, ['en'])).toEqual({
      subItemGroups: [
        {
          type: {
            catid: '2.8.1',
            isDefault: false,
            categoryTranslations: [{ lang: 'en', label: 'Conference centre' }],
          },
          categories: [
            {
              catid: 'p-1605',
              datatype: 'integer',
              value: '64',
              categoryTranslations: [{ lang: 'en', label: 'Seated dinner' }],
            },
            { catid: 'p-9999', value: 'unknown' },
          ],
        },
        { subItemTranslations: [{ lang: 'en', title: 'Foyer' }] },
      ],
    });
    expect(filledSubItemGroups({ links: [] }, ontologies, ['nl'])).toEqual({ links: [] });
  });
});
