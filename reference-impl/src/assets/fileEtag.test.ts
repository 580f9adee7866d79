import { describe, expect, it } from 'vitest';
import { fileEtag } from './fileEtag.ts';

const sha = 'a'.repeat(64);

describe('fileEtag [DEC-ASSET-008]', () => {
  it('when there is a variant, then its size and mode are in the tag', () => {
    expect(fileEtag(sha, undefined)).toBe(`"${'a'.repeat(32)}"`);
    expect(fileEtag(sha, { width: 10, height: 5, fit: 'cover', mode: 'cover' })).toBe(
      `"${'a'.repeat(32)}-r1-10x5-cover"`,
    );
  });
});
