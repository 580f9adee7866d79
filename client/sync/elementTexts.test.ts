import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { elementTexts } from './elementTexts.ts';

// Each element's text is cut from the page exactly: parsed on its own, it is the element JSON.parse
// gives, whatever the strings hold (quotes, backslashes, brackets) and however the page is spaced.

const objectOrArray = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue()));

describe('elementTexts', () => {
  it('property: each text parses to the element at its place, for any array of objects and arrays, compact or indented', () => {
    fc.assert(
      fc.property(fc.array(objectOrArray, { maxLength: 8 }), fc.constantFrom(undefined, 2), (elements, indent) => {
        const text = JSON.stringify(elements, null, indent);
        const texts = elementTexts(text);
        expect(texts?.map((t) => JSON.parse(t))).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('when strings hold quotes, backslashes and brackets, then the cut is still at the element’s own brackets', () => {
    const text = '[{"a":"}\\\\"},{"b":"\\"]\\\\\\"{"} , [1,"[",{}]]';
    expect(elementTexts(text)).toEqual(['{"a":"}\\\\"}', '{"b":"\\"]\\\\\\"{"}', '[1,"[",{}]']);
  });

  it('when the array holds a string, number or literal, then no texts are given', () => {
    for (const text of ['[{},"x"]', '[{}, 1]', '[-1]', '[true,{}]', '[null]'])
      expect(elementTexts(text), text).toBeUndefined();
    expect(elementTexts('[]')).toEqual([]);
  });
});
