import { describe, expect, it } from 'vitest';
import { itemLanguages } from './languages.ts';

describe('itemLanguages', () => {
  it('when availableLanguages is set, then those languages are used [DEC-DICT-006]', () => {
    expect(
      itemLanguages({ translations: { availableLanguages: ['en', 'nl', 'en'] }, trcItemDetails: [{ lang: 'de' }] }),
    ).toEqual(['en', 'nl']);
  });

  it('when availableLanguages is absent or empty, then the languages of trcItemDetails are used [DEC-DICT-006]', () => {
    expect(
      itemLanguages({ translations: { availableLanguages: [] }, trcItemDetails: [{ lang: 'de' }, { lang: 'nl' }, {}] }),
    ).toEqual(['de', 'nl']);
    expect(itemLanguages({ trcItemDetails: [{ lang: 'fr' }] })).toEqual(['fr']);
  });

  it('when the item names no language, then Dutch is used [DEC-DICT-006]', () => {
    expect(itemLanguages({})).toEqual(['nl']);
    expect(itemLanguages({ translations: null, trcItemDetails: [{ title: 'x' }] })).toEqual(['nl']);
  });
});
