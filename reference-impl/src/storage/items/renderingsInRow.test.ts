import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachEngine } from '../testing/testDb.ts';
import { insertItem } from './insertItem.ts';
import { ITEM_SORT_COLUMNS } from './listItems.ts';

// Migration 011: a list reads up to 2000 stored renderings a page, so they stay in their rows
// (not moved to the TOAST table, not compressed) when the row can hold them, and every sort the
// list offers has an index in its order.

describeEachEngine('stored renderings in the row (migration 011)', (ctx) => {
  const toastBytes = async (): Promise<number> => {
    const { rows } = await ctx.db.query<{ bytes: string | number }>(
      `SELECT pg_relation_size(reltoastrelid) AS bytes FROM pg_class WHERE oid = 'items'::regclass`);
    return Number(rows[0]!.bytes);
  };

  it('when items with a 5 kB rendering and a 3 kB document are written, then the renderings stay in their rows, uncompressed', async () => {
    const count = 40;
    const before = await toastBytes();
    for (let i = 0; i < count; i++) {
      // Distinct text, so that neither the rendering nor the document is one repeated run.
      const words = Array.from({ length: 700 }, () => randomUUID().slice(0, 7)).join(' ');
      await insertItem(ctx.db, {
        trcid: `row-${randomUUID()}`, entitytype: 'EVENEMENT', wfstatus: 'approved', userorganisation: 'org-row',
        externalId: null, title: 'Concert', slug: null,
        doc: { trcItemDetails: [{ lang: 'nl', title: 'Concert', longdescription: 'Een avond vol muziek. '.repeat(140) }] },
        rendering: { body: `"files":[],"longdescription":${JSON.stringify(words.slice(0, 5000))}`, key: 'k' },
      });
    }
    const { rows } = await ctx.db.query<{ compressed: string | number; bodies: string | number }>(
      `SELECT count(pg_column_compression(rendered_body)) AS compressed, sum(octet_length(rendered_body)) AS bodies FROM items WHERE userorganisation = 'org-row'`);
    expect(Number(rows[0]!.compressed)).toBe(0);
    // Out of line (migration 007's layout) they would add their own size to the TOAST table.
    expect(await toastBytes() - before).toBeLessThan(Number(rows[0]!.bodies) / 4);
  });

  it('when a list is sorted by any field it offers, then an index holds the collection in that order', async () => {
    const { rows } = await ctx.db.query<{ definition: string }>(`SELECT indexdef AS definition FROM pg_indexes WHERE tablename = 'items'`);
    // Within one collection, sorting by entitytype is sorting by id; trcid is unique on its own.
    const orderOf = (column: string): string => (column === 'id' || column === 'entitytype' ? '(id)' : column === 'trcid' ? '(trcid)' : `(entitytype, ${column}, id)`);
    for (const column of Object.values(ITEM_SORT_COLUMNS)) {
      const ordered = rows.some((r) => r.definition.endsWith(orderOf(column)));
      expect({ column, ordered }).toEqual({ column, ordered: true });
    }
  });
});
