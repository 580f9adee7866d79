// PostgreSQL stores the members of a jsonb object sorted (shorter keys first, then by their UTF-8
// bytes), so a document read back has that order whatever order it was written in. A rendering
// made at write time from the document as sent must see the same order as one made later from
// the stored document, or the two texts differ (migration 007).

const utf8 = new TextEncoder();

function compareKeys(a: string, b: string): number {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i]) return x[i]! - y[i]!;
  }
  return 0;
}

/** `value` with every object's members in the order jsonb keeps them; arrays keep their order. */
export function inJsonbOrder<T>(value: T): T {
  if (Array.isArray(value)) return value.map(inJsonbOrder) as T;
  if (typeof value !== 'object' || value === null) return value;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(compareKeys)) {
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined) continue;
    // A member named __proto__ (JSON.parse makes it an own member) must stay a member.
    Object.defineProperty(ordered, key, {
      value: inJsonbOrder(member),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return ordered as T;
}
