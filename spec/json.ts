// JSON.parse, without a V8 bug that loses member names. V8's JSON.parse (Node 24 and 26) can read
// an escaped member name as an earlier, similar one: after {"\\":1}, {"\"":2} comes back with the
// name "\\" (nodejs/node#63785). Names without a backslash, and escaped string values, are read
// right. So a text whose names hold no escape is JSON.parse's as it is; in any other, each escaped
// name is replaced by a plain stand-in for the parse, and put back, decoded as a string value.

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
