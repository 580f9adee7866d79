// What the sync procedure needs from a list page, read straight from its UTF-8 bytes: a few
// string members of each item (`trcid`, `lastupdated`, `wfstatus`) and where the item's text lies,
// so that a store that keeps item text gets it without the page being parsed. The whole page is
// checked against the JSON grammar (RFC 8259), every byte of it, but no object is built: much
// faster than JSON.parse on a real page.

/** One element of a page: the wanted members' string values and the element's bytes. */
export interface PageElement {
  /** Per wanted name, in order: its string value; undefined when absent or not a string (the last one wins, as in JSON.parse). */
  values: Array<string | undefined>;
  /** The element's text is `body[start, end)`. */
  start: number;
  end: number;
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
// The item member a key names (depth 2 only): an index into the wanted names, or none.
const OTHER = -1;

const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  COMMA = 0x2c,
  COLON_CHAR = 0x3a;
const OPEN_OBJECT = 0x7b,
  CLOSE_OBJECT = 0x7d,
  OPEN_ARRAY = 0x5b,
  CLOSE_ARRAY = 0x5d;

/**
 * The members `names` of each element of a JSON array of objects (a list page), in order, with the
 * element's byte range. Throws a SyntaxError naming the byte offset when the text is not JSON, or
 * not an array of objects: exactly the texts on which `JSON.parse(body.toString('utf8'))` throws or
 * gives something else.
 */
export function pageElements(body: Uint8Array, names: readonly string[]): PageElement[] {
  const items: PageElement[] = [];
  const wanted = names.map((name) => Buffer.from(name));
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const open: number[] = [];
  const n = body.length;
  let expect = VALUE,
    at = 0,
    depth = 0,
    member = OTHER,
    start = 0;
  let values: Array<string | undefined> = [];
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
            ? names.indexOf(
                JSON.parse(
                  Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8', at, after),
                ) as string,
              )
            : memberAt(wanted, body, at + 1, after - 1);
        expect = COLON;
      } else {
        if (depth <= 1) fail(at, depth === 0 ? 'an array' : 'an item object');
        if (depth === 2 && member !== OTHER) {
          values[member] = escaped
            ? (JSON.parse(text.toString('utf8', at, after)) as string)
            : text.toString('utf8', at + 1, after - 1);
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
        values = new Array<string | undefined>(names.length).fill(undefined);
        start = at;
      }
      // A keyset member whose value is not a string has none.
      if (depth === 2 && member !== OTHER) {
        values[member] = undefined;
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
    if (depth === 1) items.push({ values, start, end: at });
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

/** The index of the wanted name spelled by the unescaped key bytes [start, end), or OTHER. */
function memberAt(wanted: readonly Buffer[], body: Uint8Array, start: number, end: number): number {
  const length = end - start;
  next: for (let w = 0; w < wanted.length; w++) {
    const name = wanted[w]!;
    if (name.length !== length) continue;
    for (let k = 0; k < length; k++) if (body[start + k] !== name[k]) continue next;
    return w;
  }
  return OTHER;
}
