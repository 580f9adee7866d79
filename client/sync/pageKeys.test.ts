import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageElements } from './pageKeys.ts';

interface ItemKeys {
  id: string | undefined;
  lastupdated: string | undefined;
}

function itemKeysOf(body: Buffer): ItemKeys[] {
  return pageElements(body, ['id', 'lastupdated']).map(({ values: [id, lastupdated] }) => ({ id, lastupdated }));
}

// The oracle: what JSON.parse makes of the same bytes. 'rejected' when it throws or the text is not
// an array of objects.
function viaJsonParse(body: Buffer): Array<ItemKeys & { item: unknown }> | 'rejected' {
  let page: unknown;
  try {
    page = JSON.parse(body.toString('utf8'));
  } catch {
    return 'rejected';
  }
  if (!Array.isArray(page)) return 'rejected';
  const items: Array<ItemKeys & { item: unknown }> = [];
  for (const item of page as unknown[]) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'rejected';
    const member = (name: string): string | undefined => {
      const value = Object.hasOwn(item, name) ? (item as Record<string, unknown>)[name] : undefined;
      return typeof value === 'string' ? value : undefined;
    };
    items.push({ id: member('id'), lastupdated: member('lastupdated'), item });
  }
  return items;
}

/** The keys the scan reads, and each element as JSON.parse reads the text the scan cut out for it. */
function viaScan(body: Buffer): Array<ItemKeys & { item: unknown }> | 'rejected' {
  try {
    return pageElements(body, ['id', 'lastupdated']).map(({ values: [id, lastupdated], start, end }) => ({
      id,
      lastupdated,
      item: JSON.parse(body.toString('utf8', start, end)) as unknown,
    }));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return 'rejected';
  }
}

// Items with the keyset members (sometimes missing, sometimes not strings, sometimes nested
// deeper, where they must not count) among arbitrary JSON.
const keyName = fc.oneof(
  fc.constantFrom('id', 'lastupdated', 'ID', 'last', 'lastupdated2', ''),
  fc.string({ unit: 'grapheme' }),
);
const anyValue = fc.oneof(fc.string({ unit: 'binary' }), fc.jsonValue({ maxDepth: 3 }));
const itemArb: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  keyName,
  fc.oneof(anyValue, fc.dictionary(keyName, anyValue, { maxKeys: 4 })),
  { maxKeys: 8 },
);
const pageArb = fc.array(itemArb, { maxLength: 6 });
const textOf = (page: unknown, indent: number | string): string => JSON.stringify(page, null, indent);

// Small edits of a valid page, at the byte level: what a broken service or network might send.
const SIGNIFICANT = [...'{}[]",:\\ \t\n0123456789-+.eEtrufalsn']
  .map((ch) => ch.charCodeAt(0))
  .concat([0x00, 0x1f, 0x7f, 0xc3, 0xff]);
const editArb = fc.record({
  kind: fc.constantFrom('delete', 'insert', 'replace'),
  position: fc.nat(),
  byte: fc.oneof(fc.constantFrom(...SIGNIFICANT), fc.integer({ min: 0, max: 255 })),
});
function edited(body: Buffer, edits: ReadonlyArray<{ kind: string; position: number; byte: number }>): Buffer {
  let bytes = [...body];
  for (const { kind, position, byte } of edits) {
    const at = bytes.length === 0 ? 0 : position % (bytes.length + (kind === 'insert' ? 1 : 0));
    if (kind === 'delete') bytes.splice(at, 1);
    else if (kind === 'insert') bytes.splice(at, 0, byte);
    else if (bytes.length > 0) bytes[at % bytes.length] = byte;
  }
  return Buffer.from(bytes);
}

describe('pageElements', () => {
  it('when a page is valid JSON (any members, any whitespace), then it reads the same id and lastupdated of each item as JSON.parse, and cuts out the text of each item', () => {
    fc.assert(
      fc.property(pageArb, fc.constantFrom<number | string>(0, 1, 2, '\t'), (page, indent) => {
        const body = Buffer.from(textOf(page, indent));
        expect(viaScan(body)).toEqual(viaJsonParse(body));
      }),
      { numRuns: 1000 },
    );
  });

  it('when a valid page is edited byte by byte, then it rejects exactly what JSON.parse rejects (or finds no array of objects in), and reads the same keys from the rest', () => {
    fc.assert(
      fc.property(pageArb, fc.array(editArb, { minLength: 1, maxLength: 3 }), (page, edits) => {
        const body = edited(Buffer.from(textOf(page, 0)), edits);
        expect(viaScan(body)).toEqual(viaJsonParse(body));
      }),
      { numRuns: 3000 },
    );
  });

  it("when given any short text of JSON's own characters, then it agrees with JSON.parse", () => {
    const jsonish = fc.array(fc.constantFrom(...SIGNIFICANT), { maxLength: 24 }).map((bytes) => Buffer.from(bytes));
    fc.assert(
      fc.property(jsonish, (body) => {
        expect(viaScan(body)).toEqual(viaJsonParse(body));
      }),
      { numRuns: 5000 },
    );
  });

  it('when a string holds any run of escape characters, then it reads or rejects it as JSON.parse does', () => {
    const escapeish = fc
      .array(fc.constantFrom(...'\\\\u0aAfFgG"/bnrtx\u0001é'), { maxLength: 12 })
      .map((chars) => chars.join(''));
    fc.assert(
      fc.property(escapeish, (inside) => {
        const body = Buffer.from(`[{"id":"${inside}","lastupdated":"x"}]`);
        expect(viaScan(body)).toEqual(viaJsonParse(body));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['an empty page', '[]', []],
    [
      'escaped member names and values',
      '[{"\\u0069d":"a\\"b","last\\u0075pdated":"2026-11-22T12:00:00.000Z"}]',
      [{ id: 'a"b', lastupdated: '2026-11-22T12:00:00.000Z' }],
    ],
    ['a repeated member (the last one wins)', '[{"id":"a","id":"b"}]', [{ id: 'b', lastupdated: undefined }]],
    ['a member replaced by an object', '[{"id":"a","id":{"id":"c"}}]', [{ id: undefined, lastupdated: undefined }]],
    [
      'members of nested objects',
      '[{"x":{"id":"n","lastupdated":"m"},"y":[{"id":"p"}]}]',
      [{ id: undefined, lastupdated: undefined }],
    ],
    ['non-ASCII values', '[{"id":"é€😀","lastupdated":"ö"}]', [{ id: 'é€😀', lastupdated: 'ö' }]],
  ])('when the page holds %s, then it reads them as JSON.parse does', (_, text, keys) => {
    const body = Buffer.from(text);
    expect(itemKeysOf(body)).toEqual(keys);
    expect(viaJsonParse(body)).toMatchObject(keys);
  });

  it.each([
    ['an empty body', ''],
    ['an object', '{"id":"a"}'],
    ['an array of strings', '["a"]'],
    ['an array of arrays', '[[]]'],
    ['a trailing comma', '[{"id":"a"},]'],
    ['a raw control character in a string', '[{"id":"a\u0001"}]'],
    ['a leading zero', '[{"n":01}]'],
    ['a byte order mark', '\ufeff[]'],
    ['text after the page', '[] []'],
    ['an unterminated string', '[{"id":"a}]'],
    ['a \\u escape without four hex digits', '[{"id":"\\u12g4"}]'],
  ])('when the body is %s, then it throws a SyntaxError naming the byte', (_, text) => {
    expect(() => itemKeysOf(Buffer.from(text))).toThrow(/^not a JSON array of objects: expected .+ at byte \d+$/);
    expect(viaJsonParse(Buffer.from(text))).toBe('rejected');
  });
});
