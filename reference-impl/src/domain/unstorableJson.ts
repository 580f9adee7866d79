// What makes a JSON value unstorable before any schema is applied, for request bodies (DEC-ERR-004,
// DEC-ITEM-028) and partner feed entries alike (DEC-FEED-005): a string or field name holding
// U+0000, which PostgreSQL cannot store, or nesting deeper than MAX_JSON_DEPTH, which would
// overflow the stack of the recursive code further on (validation, item rules, JSON.stringify).

/** Objects and arrays nesting deeper than this (the root is level 0) are refused. */
export const MAX_JSON_DEPTH = 100;

/** Where (a JSON pointer, '' for the root) and what. */
export interface UnstorableProblem {
  pointer: string;
  message: string;
}

/** The first problem found in `value`, or undefined. Iterative, so the check itself never overflows. */
export function findUnstorable(value: unknown): UnstorableProblem | undefined {
  const stack: Array<[unknown, string, number]> = [[value, '', 0]];
  while (stack.length > 0) {
    const [current, pointer, depth] = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000'))
        return { pointer, message: 'contains the character U+0000, which cannot be stored' };
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
      if (key.includes('\u0000'))
        return { pointer: at, message: 'contains the character U+0000, which cannot be stored' };
      stack.push([entry, at, depth + 1]);
    }
  }
  return undefined;
}
