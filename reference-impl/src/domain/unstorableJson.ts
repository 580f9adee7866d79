// What makes a JSON value unstorable before any schema is applied, for request bodies (DEC-ERR-004,
// DEC-ITEM-028) and partner feed entries alike (DEC-FEED-005): a string or field name holding
// U+0000 or a lone UTF-16 surrogate (`"\ud800"` is valid JSON but no Unicode text), which
// PostgreSQL cannot store, or nesting deeper than MAX_JSON_DEPTH, which would overflow the stack
// of the recursive code further on (validation, item rules, JSON.stringify).

/** Objects and arrays nesting deeper than this (the root is level 0) are refused. */
export const MAX_JSON_DEPTH = 100;

/** Where (a JSON pointer, '' for the root) and what. */
export interface UnstorableProblem {
  pointer: string;
  message: string;
}

// With the u flag a surrogate pair is one code point, so only an unpaired half matches.
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Why `text` cannot be stored, or undefined. */
function unstorableText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains the character U+0000, which cannot be stored';
  if (LONE_SURROGATE.test(text))
    return 'contains a lone UTF-16 surrogate (an escape such as \\ud800 without its pair), which is not Unicode text and cannot be stored';
  return undefined;
}

/** The first problem found in `value`, or undefined. Iterative, so the check itself never overflows. */
export function findUnstorable(value: unknown): UnstorableProblem | undefined {
  const stack: Array<[unknown, string, number]> = [[value, '', 0]];
  while (stack.length > 0) {
    const [current, pointer, depth] = stack.pop()!;
    if (typeof current === 'string') {
      const message = unstorableText(current);
      if (message !== undefined) return { pointer, message };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { pointer, message: `nests deeper than ${MAX_JSON_DEPTH} levels` };
    if (Array.isArray(current)) {
      current.forEach((entry, index) => stack.push([entry, `${pointer}/${index}`, depth + 1]));
      continue;
    }
    for (const [key, entry] of Object.entries(current)) {
      const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      const message = unstorableText(key);
      if (message !== undefined) return { pointer: at, message };
      stack.push([entry, at, depth + 1]);
    }
  }
  return undefined;
}
