// Equality of JSON values as stored: object key order does not count (jsonb reorders keys), and an
// absent field equals one that is undefined.

export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((value, index) => sameJson(value, other[index]));
  }
  const x = a as Record<string, unknown>,
    y = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  for (const key of keys) if (!sameJson(x[key], y[key])) return false;
  return true;
}
