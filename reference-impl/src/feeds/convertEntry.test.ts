import { describe, expect, it } from 'vitest';
import type { PropertyIndex } from '../dictionary/indexes.ts';
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
