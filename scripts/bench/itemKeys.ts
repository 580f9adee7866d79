// What the sync procedure needs from a list page, read straight from its UTF-8 bytes: each item's
// `id` and `lastupdated` (the keyset: the next mark, and the items repeated at the inclusive
// bound). The whole page is checked against the JSON grammar (RFC 8259), every byte of it, but no
// object is built: about three times the speed of JSON.parse on a real page, so the backfill's load
// generator measures the service rather than its own parsing (docs/benchmarks.md).

/** An item's keyset members: their string values, undefined when absent or not a string (the last one wins, as in JSON.parse). */
export interface ItemKeys {
  id: string | undefined;
  lastupdated: string | undefined;
}

// What the scanner expects next.
const VALUE = 0,
  VALUE_OR_CLOSE = 1,
  KEY = 2,
  KEY_OR_CLOSE = 3,
  COLON = 4,
  AFTER_VALUE = 5;
// What is open: the stack holds one of these per level.
const ARRAY = 0,
  OBJECT = 1;
// The item member a key names (depth 2 only).
const OTHER = 0,
  ID = 1,
  LASTUPDATED = 2;

const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  COMMA = 0x2c,
  COLON_CHAR = 0x3a;
const OPEN_OBJECT = 0x7b,
  CLOSE_OBJECT = 0x7d,
  OPEN_ARRAY = 0x5b,
  CLOSE_ARRAY = 0x5d;

/**
 * The keyset members of each element of a JSON array of objects (a list page), in order. Throws a
 * SyntaxError naming the byte offset when the text is not JSON, or not an array of objects:
 * exactly the texts on which `JSON.parse(body.toString('utf8'))` throws or gives something else.
 */
export function itemKeysOf(body: Buffer): ItemKeys[] {
  const items: ItemKeys[] = [];
  const open: number[] = [];
  const n = body.length;
  let expect = VALUE,
    at = 0,
    depth = 0,
    member = OTHER;
  let id: string | undefined, lastupdated: string | undefined;
  // One loop over the structure; strings, numbers and literals are skipped by small functions that
  // return where they end (no closures: a captured index would live on the heap).
  while (at < n) {
    const c = body[at]!;
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      at++;
      continue;
    }
    if (expect === AFTER_VALUE) {
      if (depth === 0) fail(at, 'the end of the text');
      const top = open[depth - 1];
      if (c === COMMA) {
        at++;
        expect = top === OBJECT ? KEY : VALUE;
        continue;
      }
      if (c !== (top === OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY))
        fail(at, top === OBJECT ? 'a comma or }' : 'a comma or ]');
    } else if (expect === COLON) {
      if (c !== COLON_CHAR) fail(at, 'a colon');
      at++;
      expect = VALUE;
      continue;
    } else if (c === QUOTE) {
      const end = stringEnd(body, at);
      const escaped = end < 0;
      const after = escaped ? -end : end;
      if (expect >= KEY) {
        if (depth === 2)
          member = escaped
            ? memberNamed(JSON.parse(body.toString('utf8', at, after)) as string)
            : memberAt(body, at + 1, after - 1);
        expect = COLON;
      } else {
        if (depth <= 1) fail(at, depth === 0 ? 'an array' : 'an item object');
        if (depth === 2 && member !== OTHER) {
          const value = escaped
            ? (JSON.parse(body.toString('utf8', at, after)) as string)
            : body.toString('utf8', at + 1, after - 1);
          if (member === ID) id = value;
          else lastupdated = value;
        }
        expect = AFTER_VALUE;
      }
      at = after;
      continue;
    } else if (expect >= KEY) {
      if (!(expect === KEY_OR_CLOSE && c === CLOSE_OBJECT)) fail(at, 'a member name');
    } else if (!(expect === VALUE_OR_CLOSE && c === CLOSE_ARRAY)) {
      // A value that is not a string. The page is an array, and each of its elements an object.
      if (depth === 0 && c !== OPEN_ARRAY) fail(at, 'an array');
      if (depth === 1) {
        if (c !== OPEN_OBJECT) fail(at, 'an item object');
        id = undefined;
        lastupdated = undefined;
      }
      // A keyset member whose value is not a string has none.
      if (depth === 2 && member !== OTHER) {
        if (member === ID) id = undefined;
        else lastupdated = undefined;
        member = OTHER;
      }
      if (c === OPEN_OBJECT) {
        open.push(OBJECT);
        depth++;
        at++;
        expect = KEY_OR_CLOSE;
        continue;
      }
      if (c === OPEN_ARRAY) {
        open.push(ARRAY);
        depth++;
        at++;
        expect = VALUE_OR_CLOSE;
        continue;
      }
      at =
        c === 0x74
          ? literalEnd(body, at, 'true')
          : c === 0x66
            ? literalEnd(body, at, 'false')
            : c === 0x6e
              ? literalEnd(body, at, 'null')
              : numberEnd(body, at);
      expect = AFTER_VALUE;
      continue;
    }
    // A closing bracket that fits what is open.
    open.pop();
    depth--;
    at++;
    expect = AFTER_VALUE;
    if (depth === 1) items.push({ id, lastupdated });
  }
  if (depth !== 0 || expect !== AFTER_VALUE) fail(at, 'more of the text');
  return items;
}

function fail(at: number, expected: string): never {
  throw new SyntaxError(`not a JSON array of objects: expected ${expected} at byte ${at}`);
}

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39;
const isHexDigit = (c: number | undefined): boolean =>
  isDigit(c) || (c !== undefined && (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
const SIMPLE_ESCAPES = new Set([...'"\\/bfnrt'].map((ch) => ch.charCodeAt(0)));

/** Where the string opened by the quote at `at` ends (the index after its closing quote); negated when it holds an escape. */
function stringEnd(body: Uint8Array, at: number): number {
  let escaped = false;
  for (;;) {
    const c = body[++at];
    if (c === QUOTE) return escaped ? -(at + 1) : at + 1;
    if (c === BACKSLASH) {
      escaped = true;
      const e = body[++at];
      if (e === 0x75) {
        if (!(
          isHexDigit(body[at + 1]) &&
          isHexDigit(body[at + 2]) &&
          isHexDigit(body[at + 3]) &&
          isHexDigit(body[at + 4])
        ))
          fail(at + 1, 'four hex digits');
        at += 4;
      } else if (e === undefined || !SIMPLE_ESCAPES.has(e)) {
        fail(at, 'an escape');
      }
    } else if (c === undefined || c < 0x20) {
      fail(at, 'the end of the string'); // control characters must be escaped
    }
  }
}

function literalEnd(body: Uint8Array, at: number, word: string): number {
  for (let k = 0; k < word.length; k++) if (body[at + k] !== word.charCodeAt(k)) fail(at + k, word);
  return at + word.length;
}

/** `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` */
function numberEnd(body: Uint8Array, at: number): number {
  if (body[at] === 0x2d) at++;
  if (body[at] === 0x30) at++;
  else if (isDigit(body[at])) {
    do at++;
    while (isDigit(body[at]));
  } else fail(at, 'a value');
  if (body[at] === 0x2e) {
    if (!isDigit(body[++at])) fail(at, 'a digit');
    do at++;
    while (isDigit(body[at]));
  }
  if (body[at] === 0x65 || body[at] === 0x45) {
    at++;
    if (body[at] === 0x2b || body[at] === 0x2d) at++;
    if (!isDigit(body[at])) fail(at, 'a digit');
    do at++;
    while (isDigit(body[at]));
  }
  return at;
}

const ID_BYTES = Buffer.from('id');
const LASTUPDATED_BYTES = Buffer.from('lastupdated');

/** The member named by the unescaped key bytes [start, end). */
function memberAt(body: Uint8Array, start: number, end: number): number {
  const length = end - start;
  if (length === ID_BYTES.length) return body[start] === ID_BYTES[0] && body[start + 1] === ID_BYTES[1] ? ID : OTHER;
  if (length !== LASTUPDATED_BYTES.length) return OTHER;
  for (let k = 0; k < length; k++) if (body[start + k] !== LASTUPDATED_BYTES[k]) return OTHER;
  return LASTUPDATED;
}

function memberNamed(key: string): number {
  return key === 'id' ? ID : key === 'lastupdated' ? LASTUPDATED : OTHER;
}
