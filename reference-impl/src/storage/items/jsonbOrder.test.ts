import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/storage/testDb.ts';
import { inJsonbOrder } from './jsonbOrder.ts';

// The order is PostgreSQL's: checked against the engines themselves, not against a copy of the rule.

/** JSON documents jsonb can hold (no U+0000), with keys of mixed lengths, non-ASCII and digits. */
const documents = fc
  .dictionary(
    fc.oneof(
      fc.string(),
      fc.constantFrom('é', 'ab', 'b', 'Z', '10', '9', 'ß', '😀', 'calendar', 'trcItemDetails', '__proto__'),
    ),
    fc.jsonValue({ maxDepth: 3 }),
    { maxKeys: 8 },
  )
  .filter((doc) => !JSON.stringify(doc).includes('\\u0000'));

describeEachEngine('jsonb member order', (ctx) => {
  it('when any document is stored as jsonb and read back, then its members are in the order inJsonbOrder gives', async () => {
    await fc.assert(
      fc.asyncProperty(documents, async (doc) => {
        const { rows } = await ctx.db.query<{ doc: unknown }>('SELECT $1::text::jsonb AS doc', [JSON.stringify(doc)]);
        expect(JSON.stringify(inJsonbOrder(JSON.parse(JSON.stringify(doc))))).toBe(JSON.stringify(rows[0]!.doc));
      }),
      { numRuns: 150 },
    );
  });
});
