import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/storage/testDb.ts';
import { inJsonbOrder } from './jsonbOrder.ts';

// The order is PostgreSQL's: checked against the engines themselves, not against a copy of the rule.
// The engine's order is read as text arrays, never through JSON.parse: V8's JSON.parse (Node 24 and
// 26) can decode an escaped member name wrongly once an earlier text had a similar one, for
// instance "\"" as "\\" after a key "\\" (nodejs/node#63785), and these documents have such names.

/** JSON documents jsonb can hold (no U+0000), with keys of mixed lengths, non-ASCII and digits. */
const documents = fc
  .dictionary(
    fc.oneof(
      fc.string(),
      fc.constantFrom('é', 'ab', 'b', 'Z', '10', '9', 'ß', '😀', 'calendar', 'trcItemDetails', '__proto__', '"', '\\'),
    ),
    fc.jsonValue({ maxDepth: 3 }),
    { maxKeys: 8 },
  )
  .filter((doc) => !JSON.stringify(doc).includes('\\u0000'));

/** Every object in the stored document, by its path (member names and array indexes), with its member names in stored order. */
const STORED_MEMBER_ORDER = `
  WITH RECURSIVE node(path, value) AS (
    SELECT ARRAY[]::text[], $1::text::jsonb
    UNION ALL
    SELECT node.path || child.step, child.value
    FROM node, LATERAL (
      SELECT member.key AS step, member.value
      FROM jsonb_each(CASE WHEN jsonb_typeof(node.value) = 'object' THEN node.value END) AS member
      UNION ALL
      SELECT (element.n - 1)::text, element.value
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof(node.value) = 'array' THEN node.value END)
        WITH ORDINALITY AS element(value, n)
    ) AS child
  )
  SELECT path, ARRAY(SELECT key FROM jsonb_object_keys(value) WITH ORDINALITY AS k(key, n) ORDER BY n) AS members
  FROM node
  WHERE jsonb_typeof(value) = 'object'`;

type MemberOrder = Map<string, string[]>;

/** The same listing made from a JavaScript value, in the order its own members enumerate. */
function memberOrderOf(value: unknown, path: string[] = [], into: MemberOrder = new Map()): MemberOrder {
  if (Array.isArray(value)) value.forEach((element, index) => memberOrderOf(element, [...path, String(index)], into));
  else if (typeof value === 'object' && value !== null) {
    const names = Object.keys(value);
    into.set(JSON.stringify(path), names);
    for (const name of names) memberOrderOf((value as Record<string, unknown>)[name], [...path, name], into);
  }
  return into;
}

describeEachEngine('jsonb member order', (ctx) => {
  it('when any document is stored as jsonb, then its objects keep their members in the order inJsonbOrder gives', async () => {
    await fc.assert(
      fc.asyncProperty(documents, async (doc) => {
        const ordered = inJsonbOrder(doc);
        expect(ordered).toEqual(doc);
        const { rows } = await ctx.db.query<{ path: string[]; members: string[] }>(STORED_MEMBER_ORDER, [
          JSON.stringify(doc),
        ]);
        // As the driver's object would enumerate them: integer-like names come first in JavaScript.
        const stored: MemberOrder = new Map(
          rows.map((row) => [
            JSON.stringify(row.path),
            Object.keys(Object.fromEntries(row.members.map((name) => [name, 0]))),
          ]),
        );
        expect(memberOrderOf(ordered)).toEqual(stored);
      }),
      { numRuns: 150 },
    );
  });
});
