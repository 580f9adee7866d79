import { describe, expect, it } from 'vitest';
import { matchesIfMatch, matchesIfNoneMatch } from './preconditions.ts';

const tag = '"abc123"';

describe('matchesIfNoneMatch [DEC-ASSET-008] [DEC-ITEM-031]', () => {
  it('when If-None-Match lists the tag, weak or strong, or is *, then it matches', () => {
    expect(matchesIfNoneMatch(tag, tag)).toBe(true);
    expect(matchesIfNoneMatch(`W/${tag}`, tag)).toBe(true);
    expect(matchesIfNoneMatch(`"x", ${tag}`, tag)).toBe(true);
    expect(matchesIfNoneMatch(`"x",${tag} `, tag)).toBe(true);
    expect(matchesIfNoneMatch('*', tag)).toBe(true);
  });

  it('when it lists other tags, is absent or holds no entity tag, then it does not match', () => {
    expect(matchesIfNoneMatch('"x"', tag)).toBe(false);
    expect(matchesIfNoneMatch(undefined, tag)).toBe(false);
    expect(matchesIfNoneMatch('abc123', tag)).toBe(false);
    expect(matchesIfNoneMatch(`${tag} junk`, tag)).toBe(false);
  });
});

describe('matchesIfMatch [DEC-ITEM-031]', () => {
  it('when If-Match is absent, then the write goes ahead (no condition)', () => {
    expect(matchesIfMatch(undefined, tag)).toBe(true);
  });

  it('when it lists the current tag, then it matches; a weak tag never does (strong comparison)', () => {
    expect(matchesIfMatch(tag, tag)).toBe(true);
    expect(matchesIfMatch(`"old", ${tag}`, tag)).toBe(true);
    expect(matchesIfMatch(`W/${tag}`, tag)).toBe(false);
  });

  it('when it is *, then it matches any current representation, and none when there is none', () => {
    expect(matchesIfMatch('*', tag)).toBe(true);
    expect(matchesIfMatch('*', null)).toBe(false);
  });

  it('when it holds another tag, an unquoted value or nothing, then it does not match', () => {
    expect(matchesIfMatch('"nope"', tag)).toBe(false);
    expect(matchesIfMatch('nope', tag)).toBe(false);
    expect(matchesIfMatch('abc123', tag)).toBe(false);
    expect(matchesIfMatch('', tag)).toBe(false);
    expect(matchesIfMatch(tag, null)).toBe(false);
  });
});
