import fc from 'fast-check';
import type { JsonObject } from '../../../src/http/openapiDocument.ts';

// Hostile strings for paths, query strings and headers. Every value here is already in its wire
// form (percent-encoded where it goes into a URL), so malformed encodings reach the server as
// written.

/** Percent-encoded forms that are not valid UTF-8 or not valid percent-encoding at all. */
export const BROKEN_ENCODINGS = [
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%FF%FE',
  '%C3%28',
  '%ED%A0%80',
  '%C0%AF',
  '%F4%90%80%80',
  '%00',
  '%0d%0aSet-Cookie:%20x=1',
] as const;

/** Path traversal in its plain, encoded, double-encoded and overlong forms. */
export const TRAVERSALS = [
  '..%2f..%2fetc%2fpasswd',
  '..%252f..%252fetc%252fpasswd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '%252e%252e%252fetc%252fpasswd',
  '..%5c..%5cwindows%5cwin.ini',
  '..%c0%af..%c0%afetc%c0%afpasswd',
  '%2e%2e',
  '..',
  '.',
  '....%2f%2f',
  'x%00.png',
  '%2fetc%2fpasswd',
  // raw slashes: another route altogether (404)
  '../../etc/passwd',
  '..\\..\\etc\\passwd',
] as const;

const ODD_SCALARS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '1e309',
  '0x10',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '%20',
  '+1',
  '9'.repeat(400),
  '__proto__',
  'constructor',
] as const;

/** Any unicode text, percent-encoded (valid encoding of arbitrary code points, lone surrogates as U+FFFD). */
export const encodedText = (maxLength = 40): fc.Arbitrary<string> =>
  fc
    .string({ unit: 'binary', maxLength })
    .map((s) =>
      encodeURIComponent(
        s.replace(/[\ud800-\udfff]/g, (c, i: number, all: string) => (isPaired(all, i) ? c : '\ufffd')),
      ),
    );

function isPaired(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code <= 0xdbff) return (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00;
  return index > 0 && (text.charCodeAt(index - 1) & 0xfc00) === 0xd800;
}

/** A huge value of `length` characters, in one of a few shapes. */
export const hugeValue: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(2000, 8000, 15_000, 40_000), fc.constantFrom('a', '%41', '%FF', '9'))
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)));

/** A hostile value for any string position in a URL. */
export const hostileUrlValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...BROKEN_ENCODINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...ODD_SCALARS) },
  { weight: 3, arbitrary: encodedText() },
  { weight: 1, arbitrary: hugeValue },
  { weight: 1, arbitrary: fc.constant('') },
);

/** A value of the query parameter's schema, in range or just outside it, or of another type. */
export function queryValue(schema: JsonObject, items: JsonObject | undefined): fc.Arbitrary<string> {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  const typed: fc.Arbitrary<string>[] = [];
  if (type === 'integer' || type === 'number') {
    const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
    const max = typeof schema.maximum === 'number' ? schema.maximum : 2 ** 31;
    typed.push(fc.constantFrom(min, max, min - 1, max + 1, 2 ** 31, 2 ** 53 + 1, -(2 ** 53)).map(String));
    typed.push(fc.integer({ min, max: Math.min(max, min + 50) }).map(String));
  } else if (type === 'boolean') {
    typed.push(fc.constantFrom('true', 'false', 'TRUE', '1', 'yes', 'on'));
  } else if (type === 'array') {
    const values = Array.isArray(items?.enum) ? (items.enum as string[]) : ['a', 'b'];
    typed.push(fc.uniqueArray(fc.constantFrom(...values), { minLength: 1 }).map((v) => v.join(',')));
    typed.push(fc.constantFrom(`${values[0]},,`, `${values[0]},unknown`, ',', values.join(',').repeat(50)));
  } else if (Array.isArray(schema.enum)) {
    const values = schema.enum as string[];
    typed.push(
      fc.constantFrom(...values),
      fc.constantFrom(...values).map((v) => v.toUpperCase()),
      fc.constantFrom(...values).map((v) => `${v}x`),
    );
  } else if (type === 'string') {
    typed.push(
      fc.constantFrom(
        '2026-08-14',
        '2026-08-14T10:00:00Z',
        '2026-08-14T10:00:00.123456789+02:00',
        '2026-13-45',
        'yesterday',
        '0',
        '-271821-04-20T00:00:00Z',
      ),
    );
  }
  return fc.oneof(...typed.map((arbitrary) => ({ weight: 3, arbitrary })), { weight: 2, arbitrary: hostileUrlValue });
}

/** What a caller could put in Authorization; `token` picks one of the world's real tokens. */
export type AuthChoice =
  | { kind: 'token'; who: 'superAdmin' | 'admin' | 'external' | 'live' | 'otherAdmin' }
  | { kind: 'none' }
  | { kind: 'raw'; value: string };

export const authChoice: fc.Arbitrary<AuthChoice> = fc.oneof(
  { weight: 12, arbitrary: fc.constant<AuthChoice>({ kind: 'token', who: 'superAdmin' }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom<AuthChoice>(
      { kind: 'token', who: 'admin' },
      { kind: 'token', who: 'external' },
      { kind: 'token', who: 'live' },
      { kind: 'token', who: 'otherAdmin' },
    ),
  },
  { weight: 1, arbitrary: fc.constant<AuthChoice>({ kind: 'none' }) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        'Bearer',
        'Bearer ',
        'Basic dXNlcjpwYXNz',
        'Bearer cst_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        'Bearer aaa.bbb.ccc',
        'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
        'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl',
        `Bearer ${'a'.repeat(5000)}`,
        'Bearer \u00ff\u00fe',
        'Bearer a b',
        'bearer  x',
      )
      .map((value): AuthChoice => ({ kind: 'raw', value })),
  },
);

/** Extra headers: none, large, near and above Node's 16 KiB header limit, or very many. */
export type HeaderLoad = { kind: 'none' } | { kind: 'big'; bytes: number } | { kind: 'many'; count: number };

export const headerLoad: fc.Arbitrary<HeaderLoad> = fc.oneof(
  { weight: 20, arbitrary: fc.constant<HeaderLoad>({ kind: 'none' }) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(4000, 15_500, 16_100, 16_400, 17_000, 64_000)
      .map((bytes): HeaderLoad => ({ kind: 'big', bytes })),
  },
  { weight: 1, arbitrary: fc.constantFrom(100, 500, 2500).map((count): HeaderLoad => ({ kind: 'many', count })) },
);

export function headerLoadHeaders(load: HeaderLoad): Record<string, string> {
  if (load.kind === 'big') return { 'x-fuzz-padding': 'p'.repeat(load.bytes) };
  if (load.kind === 'many')
    return Object.fromEntries(Array.from({ length: load.count }, (_, i) => [`x-fuzz-${i}`, String(i)]));
  return {};
}

/** Header bytes beyond which Node answers 431 itself (its default --max-http-header-size). */
export const NODE_MAX_HEADER_BYTES = 16 * 1024;
