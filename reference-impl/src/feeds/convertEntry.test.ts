import { describe, expect, it } from 'vitest';
import { indexOntologies, type PropertyIndex } from '../dictionary/indexes.ts';
import { loadBaseOntologies } from '../dictionary/loadData.ts';
import { convertEntry, type ConvertContext } from './convertEntry.ts';
import type { FeedDefinition } from './feedConfig.ts';

describe('convertEntry: partner entries PostgreSQL cannot store (DEC-FEED-005)', () => {
  const context: ConvertContext = {
    feed: { name: 'partner', userorganisation: 'org' } as FeedDefinition,
    validate: () => null,
    properties: {} as PropertyIndex,
  };

  it.each([
    ['U+0000', 'a\u0000b', 'U+0000'],
    ['a lone surrogate', 'a\ud800b', 'surrogate'],
  ])('when an entry title holds %s, then the entry is refused naming the field', (_what, title, says) => {
    const conversion = convertEntry(
      {
        partnerId: '7',
        position: 'entry 1',
        feedInfoId: undefined,
        raw: { entitytype: 'EVENEMENT', trcItemDetails: [{ lang: 'nl', title }] },
      },
      context,
    );
    expect(conversion.ok).toBe(false);
    expect(conversion).toMatchObject({ externalId: 'partner:7', message: expect.stringContaining(says) });
    expect((conversion as { message: string }).message).toMatch(/^\/trcItemDetails\/0\/title /);
  });
});

describe('convertEntry: plain-text categories (ONTO-009)', () => {
  const context: ConvertContext = {
    feed: { name: 'partner', userorganisation: 'org' } as FeedDefinition,
    validate: () => null,
    properties: indexOntologies(loadBaseOntologies()).properties,
  };

  it("when a venue's rooms carry categories as Dutch names, then they are mapped like the item's, and the unmapped ones reported [DEC-ITEM-151] [DEC-FEED-011]", () => {
    const conversion = convertEntry(
      {
        partnerId: '8',
        position: 'entry 1',
        feedInfoId: undefined,
        raw: {
          entitytype: 'VENUE',
          trcItemCategories: { categories: [{ value: 'Wifi' }] },
          trcitemRelation: {
            subItemGroups: [
              {
                subItemTranslations: [{ lang: 'nl', title: 'Zaal' }],
                categories: [{ value: 'Wifi' }, { value: 'Onbekend' }],
              },
              { subItemTranslations: [{ lang: 'nl', title: 'Foyer' }] },
            ],
          },
        },
      },
      context,
    );
    expect(conversion.ok).toBe(true);
    const { body, unmapped } = (conversion as { entry: { body: any; unmapped: Array<{ text: string }> } }).entry;
    expect(body.trcItemCategories.categories).toEqual([{ catid: 'p-1102' }]);
    expect(body.trcitemRelation.subItemGroups).toEqual([
      { subItemTranslations: [{ lang: 'nl', title: 'Zaal' }], categories: [{ catid: 'p-1102' }] },
      { subItemTranslations: [{ lang: 'nl', title: 'Foyer' }] },
    ]);
    expect(unmapped.map((u) => u.text)).toEqual(['Onbekend']);
  });
});
