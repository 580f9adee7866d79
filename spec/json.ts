// JSON.parse, without a V8 bug that loses member names. V8's JSON.parse (Node 24 and 26) can read
// an escaped member name as an earlier, similar one: after {"\\":1}, {"\"":2} comes back with the
// name "\\" (nodejs/node#63785). Names without a backslash, and escaped string values, are read
// right. So a text whose names hold no escape is JSON.parse's as it is; in any other, each escaped
// name is replaced by a plain stand-in for the parse, and put back, decoded as a string value.

import { visit } from 'jsonc-parser';

/** What `JSON.parse(text)` gives (or throws), member names with escapes included. */
export function parseJson(text: string): unknown {
  const names = escapedNames(text);
  if (names.length === 0) return JSON.parse(text);
  JSON.parse(text); // throws as JSON.parse does for a text that is not JSON
  let stem = '~name';
  while (text.includes(stem)) stem += '~';
  const decoded = new Map<string, string>();
  let plain = '';
  let from = 0;
  names.forEach(({ start, end }, i) => {
    const standIn = `${stem}${i}`;
    decoded.set(standIn, JSON.parse(text.slice(start, end)) as string);
    plain += `${text.slice(from, start)}"${standIn}"`;
    from = end;
  });
  return restoreNames(JSON.parse(plain + text.slice(from)), stem, decoded);
}

/**
 * The first member name that repeats within one object of `text` (a text JSON.parse accepts),
 * as the JSON pointer of its member and the name; undefined when none does. Names are compared
 * decoded, so `"a"` and `"\\u0061"` are one name. JSON.parse keeps the last of repeated members
 * without a word; a reader that must not guess which one was meant refuses the text instead
 * (RFC 8259 §4: names SHOULD be unique). `parsed`, the text's value when at hand, makes the
 * common case cheap: the text's names are counted and compared with the value's members, and
 * only a text with fewer members than names is visited token by token (jsonc-parser) to find
 * the name.
 */
export function findDuplicateName(text: string, parsed?: unknown): { pointer: string; name: string } | undefined {
  if (parsed !== undefined && countNames(text) === countMembers(parsed)) return undefined;
  const objects: Array<Set<string>> = [];
  let found: { pointer: string; name: string } | undefined;
  visit(text, {
    onObjectBegin: () => {
      objects.push(new Set());
    },
    onObjectEnd: () => {
      objects.pop();
    },
    onObjectProperty: (name, _offset, _length, _line, _column, path) => {
      const names = objects[objects.length - 1]!;
      if (found === undefined && names.has(name)) found = { pointer: pointerOf([...path(), name]), name };
      names.add(name);
    },
  });
  return found;
}

// A quote that ends a string (no backslash escapes it) and is followed by a colon ends a member
// name: a string value's closing quote is followed by a comma, a bracket or the end. (An opening
// quote followed by a colon, `":…"`, counts too: more names than members only sends the text to
// the exact visit, and fewer names than members cannot happen.)
const QUOTE_COLON = /"[ \t\n\r]*:/g;

/** How many member names `text` holds, at least (a text JSON.parse accepts). */
function countNames(text: string): number {
  let count = 0;
  QUOTE_COLON.lastIndex = 0;
  for (let match = QUOTE_COLON.exec(text); match !== null; match = QUOTE_COLON.exec(text)) {
    let backslashes = 0;
    while (text.charCodeAt(match.index - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) count++;
  }
  return count;
}

/** How many members the objects in `value` hold together. Iterative: deep values stay off the stack. */
function countMembers(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) continue;
    if (Array.isArray(next)) {
      for (const element of next) if (typeof element === 'object' && element !== null) pending.push(element);
      continue;
    }
    for (const key in next) {
      count++;
      const member = (next as Record<string, unknown>)[key];
      if (typeof member === 'object' && member !== null) pending.push(member);
    }
  }
  return count;
}

/** RFC 6901. */
function pointerOf(path: ReadonlyArray<string | number>): string {
  return path.map((token) => `/${String(token).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** Whether JSON.parse could misread `text`: a member name in it holds a backslash. */
export function hasEscapedName(text: string): boolean {
  return escapedNames(text).length > 0;
}

/**
 * Where each member name holding a backslash is, quotes included, in a text JSON.parse accepts.
 * Only strings that hold a backslash are visited (every backslash of JSON is in a string): from
 * each, the end of its string, and when a colon follows, its start.
 */
function escapedNames(text: string): Array<{ start: number; end: number }> {
  const names: Array<{ start: number; end: number }> = [];
  for (let backslash = text.indexOf('\\'); backslash !== -1;) {
    const end = unescapedQuote(text, backslash, 1) + 1;
    if (end === 0) break;
    let next = end;
    while (next < text.length && ' \t\n\r'.includes(text[next]!)) next++;
    if (text[next] === ':') names.push({ start: unescapedQuote(text, backslash, -1), end });
    backslash = text.indexOf('\\', end);
  }
  return names;
}

/**
 * The nearest quote after (`direction` 1) or before (-1) `from` that no backslash escapes: from
 * within a string, its end or its start; -1 when there is none.
 */
function unescapedQuote(text: string, from: number, direction: 1 | -1): number {
  const find = (at: number) => (direction === 1 ? text.indexOf('"', at + 1) : text.lastIndexOf('"', at - 1));
  for (let at = find(from); at !== -1; at = find(at)) {
    let backslashes = 0;
    while (text[at - 1 - backslashes] === '\\') backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

/**
 * `root` with every stand-in name replaced by its decoded name, in place and in the same order
 * (a repeated name keeps its first place and its last value, as in JSON.parse). Iterative: a deep
 * document must not overflow the stack where JSON.parse read it.
 */
function restoreNames(root: unknown, stem: string, decoded: ReadonlyMap<string, string>): unknown {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const element of value) pending.push(element);
      continue;
    }
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    for (const key of keys) pending.push(object[key]);
    if (!keys.some((key) => key.startsWith(stem))) continue;
    const members = keys.map((key) => [decoded.get(key) ?? key, object[key]] as const);
    for (const key of keys) delete object[key];
    for (const [name, member] of members) setMember(object, name, member);
  }
  return root;
}

/** An own member, also when it is named __proto__ (assignment would set the prototype). */
function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A JSON object: not null, not an array. The one such type guard of the repository. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
