import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';

// Request bodies as recipes: small descriptions that fast-check generates and shrinks, turned
// into bytes only when sent. A 5 MB body is one short recipe in a failure report.

export type Mutation =
  | { kind: 'none' }
  | { kind: 'set'; key: number; value: unknown }
  | { kind: 'delete'; key: number }
  | { kind: 'unknownField'; name: string };

export type JsonBodyRecipe =
  | { kind: 'example'; example: number; mutation: Mutation }
  | { kind: 'random'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'deep'; depth: number; shape: 'array' | 'object'; at: 'root' | 'field' | 'schemaOrg'; key: number }
  | { kind: 'huge'; bytes: number; key: number }
  | { kind: 'invalidUtf8'; key: number }
  | { kind: 'nul'; key: number }
  | { kind: 'loneSurrogate'; key: number; escape: string }
  | { kind: 'encoded'; encoding: ContentCoding; form: 'valid' | 'plain' | 'truncated' }
  | { kind: 'serverSet' };

export type ContentCoding = 'gzip' | 'deflate' | 'br';

const COMPRESS: Record<ContentCoding, (bytes: Buffer) => Buffer> = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
};

/** Wrong, odd or hostile JSON values for a field. */
const hostileJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    1e308,
    -0,
    '',
    'x'.repeat(600),
    [],
    {},
    [null],
    { '': 1 },
    '\u0000',
    '\ud800',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

export const jsonBodyRecipe: fc.Arbitrary<JsonBodyRecipe> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('example' as const),
      example: fc.nat(),
      mutation: fc.oneof(
        { weight: 2, arbitrary: fc.constant<Mutation>({ kind: 'none' }) },
        {
          weight: 4,
          arbitrary: fc.record({ kind: fc.constant('set' as const), key: fc.nat(), value: hostileJsonValue }),
        },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), key: fc.nat() }) },
        {
          weight: 1,
          arbitrary: fc.record({
            kind: fc.constant('unknownField' as const),
            name: fc.constantFrom('isAdmin', '__proto__', 'constructor', 'x'.repeat(300), ''),
          }),
        },
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('random' as const), value: fc.jsonValue({ maxDepth: 4 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('text' as const),
      text: fc.constantFrom(
        '',
        ' ',
        '{',
        '{"a":',
        '[1,]',
        'NaN',
        'null',
        '[]',
        '1',
        '"s"',
        'true',
        '{"a":1}{"b":2}',
        "{'a':1}",
        '\ufeff{}',
        '{"name":"a","name":"b","roles":["ROLE_EXTERNAL_USER"]}',
        '{"__proto__":{"isAdmin":true}}',
        '{"constructor":{"prototype":{"x":1}}}',
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('deep' as const),
      depth: fc.constantFrom(100, 1000, 10_000),
      shape: fc.constantFrom('array' as const, 'object' as const),
      at: fc.constantFrom('root' as const, 'field' as const, 'schemaOrg' as const),
      key: fc.nat(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('huge' as const),
      bytes: fc.constantFrom(500_000, 1_000_000, 1_100_000, 5 * 1024 * 1024),
      key: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('invalidUtf8' as const), key: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('nul' as const), key: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('loneSurrogate' as const),
      key: fc.nat(),
      escape: fc.constantFrom('\\ud800', '\\udfff', '\\udc00\\ud800', '\\ud83d'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('encoded' as const),
      encoding: fc.constantFrom<ContentCoding>('gzip', 'deflate', 'br'),
      form: fc.constantFrom('valid' as const, 'plain' as const, 'truncated' as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant<JsonBodyRecipe>({ kind: 'serverSet' }) },
);

const SERVER_SET = {
  id: '3f1b6d2e-8c4a-4e7b-9f10-2a5c7d9e1b34',
  creationdate: '2001-01-01T00:00:00.000Z',
  lastupdated: '2001-01-01T00:00:00.000Z',
  published: true,
  deleted: false,
  offline: false,
  externalId: 'evil:1',
  created: '2001-01-01T00:00:00.000Z',
  signingSecret: 'x'.repeat(43),
  token: 'cst_forged',
  hasSigningSecret: true,
  modified: '2001-01-01T00:00:00.000Z',
  size: 1,
  mimetype: 'text/html',
};

function keyOf(example: Record<string, unknown>, index: number): string {
  const keys = Object.keys(example);
  return keys.length === 0 ? 'name' : keys[index % keys.length]!;
}

function deepJson(depth: number, shape: 'array' | 'object'): string {
  return shape === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** The bytes of a JSON body recipe for an operation whose examples are `examples`. */
export function jsonBodyBytes(recipe: JsonBodyRecipe, examples: readonly unknown[]): Buffer {
  const pick = (n: number): Record<string, unknown> => {
    const example = examples.length === 0 ? { name: 'fuzz' } : examples[n % examples.length];
    return example !== null && typeof example === 'object' && !Array.isArray(example)
      ? structuredClone(example as Record<string, unknown>)
      : { value: example };
  };
  const json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');
  switch (recipe.kind) {
    case 'example': {
      const body = pick(recipe.example);
      const { mutation } = recipe;
      if (mutation.kind === 'set') body[keyOf(body, mutation.key)] = mutation.value;
      if (mutation.kind === 'delete') delete body[keyOf(body, mutation.key)];
      if (mutation.kind === 'unknownField')
        return Buffer.from(
          `${JSON.stringify(body).slice(0, -1)}${Object.keys(body).length > 0 ? ',' : ''}${JSON.stringify(mutation.name)}:{"polluted":true}}`,
        );
      return json(body);
    }
    case 'random':
      return json(recipe.value);
    case 'text':
      return Buffer.from(recipe.text, 'utf8');
    case 'deep': {
      const deep = deepJson(recipe.depth, recipe.shape);
      if (recipe.at === 'root') return Buffer.from(deep);
      if (recipe.at === 'schemaOrg')
        return Buffer.from(
          `{"seoMetadata":{"schemaOrg":${deep}},"propertyCategories":${recipe.shape === 'array' ? deep : `[{"properties":[${deep}]}]`}}`,
        );
      return Buffer.from(`{${JSON.stringify(keyOf(pick(0), recipe.key))}:${deep}}`);
    }
    case 'huge': {
      const body = pick(0);
      body[keyOf(body, recipe.key)] = 'h'.repeat(recipe.bytes);
      return json(body);
    }
    case 'invalidUtf8': {
      const body = pick(0);
      body[keyOf(body, recipe.key)] = 'MARK';
      const text = JSON.stringify(body);
      const at = text.indexOf('MARK');
      return Buffer.concat([
        Buffer.from(text.slice(0, at)),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
        Buffer.from(text.slice(at + 4)),
      ]);
    }
    case 'nul': {
      const body = pick(0);
      body[keyOf(body, recipe.key)] = 'before\u0000after';
      return json(body);
    }
    case 'loneSurrogate': {
      const body = pick(0);
      body[keyOf(body, recipe.key)] = 'MARK';
      return Buffer.from(JSON.stringify(body).replace('"MARK"', `"a${recipe.escape}b"`));
    }
    case 'encoded': {
      const plain = json(pick(0));
      if (recipe.form === 'plain') return plain;
      const compressed = COMPRESS[recipe.encoding](plain);
      return recipe.form === 'valid' ? compressed : compressed.subarray(0, Math.ceil(compressed.length / 2));
    }
    case 'serverSet':
      return json({ ...pick(0), ...SERVER_SET });
  }
}

/** Ways to get a multipart upload wrong (and one way to get it right). */
export type MultipartRecipe =
  | {
      kind:
        | 'valid'
        | 'truncated'
        | 'noClosingBoundary'
        | 'noFile'
        | 'twoFiles'
        | 'unknownPart'
        | 'exe'
        | 'emptyFile'
        | 'noBoundaryParam'
        | 'wrongBoundary'
        | 'rawPng'
        | 'traversalFilename'
        | 'titleTooLong'
        | 'nulTitle'
        | 'empty'
        | 'textPlain';
    }
  | { kind: 'hugePartHeader'; bytes: number };

export const multipartRecipe: fc.Arbitrary<MultipartRecipe> = fc.oneof(
  fc.constantFrom<MultipartRecipe>(
    { kind: 'valid' },
    { kind: 'truncated' },
    { kind: 'noClosingBoundary' },
    { kind: 'noFile' },
    { kind: 'twoFiles' },
    { kind: 'unknownPart' },
    { kind: 'exe' },
    { kind: 'emptyFile' },
    { kind: 'noBoundaryParam' },
    { kind: 'wrongBoundary' },
    { kind: 'rawPng' },
    { kind: 'traversalFilename' },
    { kind: 'titleTooLong' },
    { kind: 'nulTitle' },
    { kind: 'empty' },
    { kind: 'textPlain' },
  ),
  fc.constantFrom(1000, 20_000, 200_000).map((bytes): MultipartRecipe => ({ kind: 'hugePartHeader', bytes })),
);

const BOUNDARY = 'fuzzBoundary7MA4YWxkTrZu0gW';

function part(headers: string, content: Buffer | string): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\n${headers}\r\n\r\n`),
    typeof content === 'string' ? Buffer.from(content) : content,
    Buffer.from('\r\n'),
  ]);
}

function filePart(bytes: Buffer, filename = 'pixel.png', extraHeader = ''): Buffer {
  return part(
    `Content-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png${extraHeader}`,
    bytes,
  );
}

const CLOSE = Buffer.from(`--${BOUNDARY}--\r\n`);

/** The Content-Type and bytes of a multipart recipe; `png` is a small valid image. */
export function multipartBody(recipe: MultipartRecipe, png: Buffer): { contentType: string; body: Buffer } {
  const multipart = `multipart/form-data; boundary=${BOUNDARY}`;
  const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510)]);
  switch (recipe.kind) {
    case 'valid':
      return {
        contentType: multipart,
        body: Buffer.concat([part('Content-Disposition: form-data; name="title"', 'Fuzz'), filePart(png), CLOSE]),
      };
    case 'truncated': {
      const full = Buffer.concat([filePart(png), CLOSE]);
      return { contentType: multipart, body: full.subarray(0, Math.floor(full.length / 2)) };
    }
    case 'noClosingBoundary':
      return { contentType: multipart, body: filePart(png) };
    case 'noFile':
      return {
        contentType: multipart,
        body: Buffer.concat([part('Content-Disposition: form-data; name="title"', 'only a title'), CLOSE]),
      };
    case 'twoFiles':
      return { contentType: multipart, body: Buffer.concat([filePart(png), filePart(png, 'second.png'), CLOSE]) };
    case 'unknownPart':
      return {
        contentType: multipart,
        body: Buffer.concat([
          part('Content-Disposition: form-data; name="owner"', 'someone-else'),
          filePart(png),
          CLOSE,
        ]),
      };
    case 'exe':
      return { contentType: multipart, body: Buffer.concat([filePart(exe, 'photo.jpg'), CLOSE]) };
    case 'emptyFile':
      return { contentType: multipart, body: Buffer.concat([filePart(Buffer.alloc(0)), CLOSE]) };
    case 'noBoundaryParam':
      return { contentType: 'multipart/form-data', body: Buffer.concat([filePart(png), CLOSE]) };
    case 'wrongBoundary':
      return {
        contentType: 'multipart/form-data; boundary=somethingElse',
        body: Buffer.concat([filePart(png), CLOSE]),
      };
    case 'rawPng':
      return { contentType: 'image/png', body: png };
    case 'traversalFilename':
      return { contentType: multipart, body: Buffer.concat([filePart(png, '../../../etc/passwd\u0000.png'), CLOSE]) };
    case 'titleTooLong':
      return {
        contentType: multipart,
        body: Buffer.concat([
          part('Content-Disposition: form-data; name="title"', 't'.repeat(20_001)),
          filePart(png),
          CLOSE,
        ]),
      };
    case 'nulTitle':
      return {
        contentType: multipart,
        body: Buffer.concat([part('Content-Disposition: form-data; name="title"', 'a\u0000b'), filePart(png), CLOSE]),
      };
    case 'empty':
      return { contentType: multipart, body: Buffer.alloc(0) };
    case 'textPlain':
      return { contentType: 'text/plain', body: Buffer.from('not a form') };
    case 'hugePartHeader':
      return {
        contentType: multipart,
        body: Buffer.concat([filePart(png, 'pixel.png', `\r\nX-Padding: ${'p'.repeat(recipe.bytes)}`), CLOSE]),
      };
  }
}
