import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDuplicateName, parseJson } from './json.ts';

// The oracle is the value the text was written from, compared through JSON.stringify (which writes
// members in their order), never JSON.parse's reading of member names: that is what is wrong.

/** Every character of a string as a \uXXXX escape: how some clients write non-ASCII names. */
const escapedString = (value: string): string =>
  `"${[...value].map((c) => [...c].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join('')}"`;

/** `value` as JSON text with every member name fully escaped. */
function withEscapedNames(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(withEscapedNames).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const members = Object.keys(value).map(
    (key) => `${escapedString(key)}:${withEscapedNames((value as Record<string, unknown>)[key])}`,
  );
  return `{${members.join(',')}}`;
}

const names = fc.oneof(fc.string(), fc.constantFrom('"', '\\', '\\\\', '"\\', '\n', 'a', '1', '__proto__', '~name0'));
const values = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 1 }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(names, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('parseJson', () => {
  it('when member names hold escapes, then it reads each name as written, after any earlier text', () => {
    fc.assert(
      fc.property(fc.array(values, { minLength: 1, maxLength: 4 }), fc.boolean(), (documents, escapeAll) => {
        for (const value of documents) {
          const text = escapeAll ? withEscapedNames(value) : JSON.stringify(value);
          expect(JSON.stringify(parseJson(text))).toBe(JSON.stringify(value));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('when a name "\\\\" came before, then a name "\\"" is still read as a quote', () => {
    expect(Object.keys(parseJson('{"h":[],"\\\\":0}') as object)).toEqual(['h', '\\']);
    expect(Object.keys(parseJson('{"h":1,"\\"":2}') as object)).toEqual(['h', '"']);
    expect(Object.keys(parseJson('{"\\\\": 1}') as object)).toEqual(['\\']);
    expect(Object.keys(parseJson('{"\\"": 2}') as object)).toEqual(['"']);
  });

  it('when names repeat or are named __proto__, then it gives what JSON.parse gives for plain names', () => {
    expect(parseJson('{"a":1,"b":2,"\\u0061":3}')).toEqual({ a: 3, b: 2 });
    expect(Object.keys(parseJson('{"b":1,"\\u0031":2}') as object)).toEqual(['1', 'b']);
    const proto = parseJson('{"x":{"\\u005f_proto__":{"y":1}}}') as { x: object };
    expect(Object.getPrototypeOf(proto.x)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(proto.x, '__proto__')?.value).toEqual({ y: 1 });
    const kept = parseJson('{"__proto__":{"\\"":1},"\\\\":2}') as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(kept, '__proto__')?.value).toEqual({ '"': 1 });
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
  });

  it('when a document is nested deeper than the stack would allow a recursion, then it is read', () => {
    const depth = 200_000;
    const value = parseJson(`${'['.repeat(depth)}{"\\"":1}${']'.repeat(depth)}`);
    let inner: unknown = value;
    for (let i = 0; i < depth; i++) inner = (inner as unknown[])[0];
    expect(inner).toEqual({ '"': 1 });
  });

  it('when the text is not JSON, then it throws where JSON.parse throws', () => {
    const texts = fc.oneof(
      fc.json().map((text) => text.replace(/"/, '\\"')),
      fc.array(fc.constantFrom(...'{}[]":,\\ nu0a1'), { maxLength: 16 }).map((chars) => chars.join('')),
    );
    fc.assert(
      fc.property(texts, (text) => {
        let expected: unknown;
        try {
          JSON.parse(text);
          expected = 'parsed';
        } catch (error) {
          expected = (error as Error).constructor;
        }
        let actual: unknown;
        try {
          parseJson(text);
          actual = 'parsed';
        } catch (error) {
          actual = (error as Error).constructor;
        }
        expect(actual).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('findDuplicateName', () => {
  it('when one object repeats a name, then it names the first repeat by its pointer, names compared decoded', () => {
    expect(findDuplicateName('{"wfstatus":"draft","wfstatus":"approved"}')).toEqual({
      pointer: '/wfstatus',
      name: 'wfstatus',
    });
    expect(findDuplicateName('{"a/b":{"c~":1,"\\u0063~":2}}')).toEqual({ pointer: '/a~1b/c~0', name: 'c~' });
    expect(findDuplicateName('[0,{"x":[{"k":1,"k":2}]}]')).toEqual({ pointer: '/1/x/0/k', name: 'k' });
  });

  it('when names repeat only in different objects, then there is none', () => {
    expect(findDuplicateName('[{"a":1},{"a":{"a":2}}]')).toBeUndefined();
    expect(findDuplicateName('{"a":":","b":"\\":","c":"x"}')).toBeUndefined();
  });

  it('when the parsed value is given, then the answer is the one without it, for any text with or without repeats', () => {
    const texts = fc.oneof(
      fc.json({ maxDepth: 3 }),
      // A member repeated somewhere: the first member of some object written twice.
      fc.json({ maxDepth: 3 }).map((text) => text.replace(/\{("(?:[^"\\]|\\.)*":[^,{}[\]]*)/, '{$1,$1')),
      fc.json({ maxDepth: 3 }).map((text) => text.replace(/"\s*:/, '" :').replace(/,/, ' , ')),
    );
    fc.assert(
      fc.property(texts, (text) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return;
        }
        expect(findDuplicateName(text, parsed)).toEqual(findDuplicateName(text));
      }),
      { numRuns: 2000 },
    );
  });
});
