import { describe, expect, it } from 'vitest';
import { fileEtag, matchesIfNoneMatch } from './fileEtag.ts';

const sha = 'a'.repeat(64);

describe('fileEtag and If-None-Match [DEC-ASSET-008]', () => {
  it('when there is a variant, then its size and mode are in the tag', () => {
    expect(fileEtag(sha, undefined)).toBe(`"${'a'.repeat(32)}"`);
    expect(fileEtag(sha, { width: 10, height: 5, fit: 'cover', mode: 'cover' })).toBe(
      `"${'a'.repeat(32)}-r1-10x5-cover"`,
    );
  });

  it('when If-None-Match lists the tag, weak or strong, or is *, then it matches', () => {
    const tag = fileEtag(sha, undefined);
    expect(matchesIfNoneMatch(tag, tag)).toBe(true);
    expect(matchesIfNoneMatch(`W/${tag}`, tag)).toBe(true);
    expect(matchesIfNoneMatch(`"x", ${tag}`, tag)).toBe(true);
    expect(matchesIfNoneMatch('*', tag)).toBe(true);
    expect(matchesIfNoneMatch('"x"', tag)).toBe(false);
    expect(matchesIfNoneMatch(undefined, tag)).toBe(false);
  });
});
