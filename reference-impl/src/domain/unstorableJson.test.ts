import { describe, expect, it } from 'vitest';
import { findUnstorable, MAX_JSON_DEPTH } from './unstorableJson.ts';

/** `levels` objects inside each other around a string; the outermost is at level 0. */
function nested(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('findUnstorable (DEC-ERR-004, DEC-ITEM-028)', () => {
  it('when objects nest 100 levels (0…99), then the value is storable; at 101 the innermost object is named', () => {
    expect(findUnstorable(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(findUnstorable(nested(MAX_JSON_DEPTH + 1))).toEqual({
      pointer: '/a'.repeat(MAX_JSON_DEPTH),
      message: 'nests deeper than 100 levels',
    });
  });

  it('when a value nests a million levels, then the check answers without overflowing the stack', () => {
    let deep: unknown = [];
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    expect(findUnstorable(deep)?.message).toBe('nests deeper than 100 levels');
  });

  it('when U+0000 is in a string or a field name, then its pointer is named, escaped as a JSON pointer', () => {
    expect(findUnstorable({ list: ['ok', 'b\u0000d'] })).toEqual({
      pointer: '/list/1',
      message: 'contains the character U+0000, which cannot be stored',
    });
    expect(findUnstorable({ 'a/b~c': { 'x\u0000': 1 } })).toEqual({
      pointer: '/a~1b~0c/x\u0000',
      message: 'contains the character U+0000, which cannot be stored',
    });
    expect(findUnstorable({ title: 'plain', n: 1, flag: true, none: null })).toBeUndefined();
  });

  it('when a string or field name holds a lone surrogate, then it is named; a surrogate pair (an emoji) is text', () => {
    for (const lone of ['\ud800', 'a\udc00', '\udbff!', '\udc00\ud800'])
      expect(findUnstorable({ items: [{ title: lone }] })?.pointer).toBe('/items/0/title');
    expect(findUnstorable({ ['k\udfff']: 1 })?.pointer).toBe('/k\udfff');
    expect(findUnstorable({ title: 'x\ud800' })?.message).toContain('surrogate');
    expect(findUnstorable({ title: 'party \ud83c\udf89', ['\ud83d\ude00']: 'ok' })).toBeUndefined();
  });
});
