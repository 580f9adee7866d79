import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { createTestAccount } from '../../testing/fixtures.ts';
import { putOntologyOverride } from '../dictionary/putOntologyOverride.ts';
import { describeEachEngine } from '../testing/testDb.ts';
import { readContentVersion } from './contentVersion.ts';
import { insertItem, type InsertItemParams } from './insertItem.ts';
import { storeRenderings } from './staleRenderings.ts';
import { updateItem } from './updateItem.ts';

// Migration 010: the list cache sends a page again only while the content version is the one it
// was rendered at, so every write that can change a list answer must change the version, in its
// own commit; renewing stored renderings changes no answer and must not.

function draft(userorganisation: string): InsertItemParams {
  return {
    trcid: `trc-${randomUUID()}`, entitytype: 'EVENEMENT', wfstatus: 'approved', userorganisation,
    externalId: null, title: 'Concert', slug: null, doc: { trcItemDetails: [{ lang: 'nl', title: 'Concert' }] },
  };
}

describeEachEngine('content version (migration 010)', (ctx) => {
  /** Runs `write` and tells whether the version changed. */
  const changes = async (write: () => Promise<unknown>): Promise<boolean> => {
    const before = await readContentVersion(ctx.db);
    await write();
    return (await readContentVersion(ctx.db)) !== before;
  };

  it('when an item is inserted, replaced or removed, then the version changes; when only its stored rendering is renewed, it does not', async () => {
    const item = await insertItem(ctx.db, draft('cv-items'));
    expect(await changes(() => insertItem(ctx.db, draft('cv-items')))).toBe(true);
    let current = item;
    expect(await changes(async () => {
      current = (await updateItem(ctx.db, { ...draft('cv-items'), id: item.id, trcid: item.trcid, wfstatus: 'archived' }))!;
    })).toBe(true);
    expect(await changes(() => storeRenderings(ctx.db, [{ id: item.id, lastupdated: current.lastupdated, rendering: { body: '"x":1', key: 'k' } }]))).toBe(false);
    expect(await changes(() => ctx.db.query('DELETE FROM items WHERE id = $1', [item.id]))).toBe(true);
  });

  it('when any column of an item but its stored rendering is written, then the version changes (a column added later must join the trigger)', async () => {
    const item = await insertItem(ctx.db, draft('cv-columns'));
    const { rows } = await ctx.db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'items' ORDER BY column_name`);
    const columns = rows.map((row) => row.column_name);
    expect(columns).toContain('doc');
    for (const column of columns) {
      const changed = await changes(() => ctx.db.query(`UPDATE items SET "${column}" = "${column}" WHERE id = $1`, [item.id]));
      expect({ column, changed }).toEqual({ column, changed: !column.startsWith('rendered_') });
    }
  });

  it('when an ontology override is written or an organisation added or moved, then the version changes', async () => {
    await createTestAccount(ctx.db, { accountId: 'cv-a', organisations: ['cv-a1'] });
    await createTestAccount(ctx.db, { accountId: 'cv-b', organisations: [] });
    expect(await changes(() => putOntologyOverride(ctx.db, { kind: 'properties', accountId: 'cv-a', ontology: { propertyCategories: [{ id: 'pc-1', name: 'x', datatype: 'yes' }] } }))).toBe(true);
    expect(await changes(() => putOntologyOverride(ctx.db, { kind: 'types', accountId: 'cv-a', ontology: { categorizations: [{ cnetID: '1', categorization: 'x' }] } }))).toBe(true);
    expect(await changes(() => createTestAccount(ctx.db, { accountId: 'cv-b', organisations: ['cv-b1'] }))).toBe(true);
    expect(await changes(() => ctx.db.query('UPDATE organisations SET account_id = $1 WHERE userorganisation = $2', ['cv-b', 'cv-a1']))).toBe(true);
  });

  it('when a write is rolled back, then the version is the one before it', async () => {
    const before = await readContentVersion(ctx.db);
    await expect(ctx.db.transaction(async (tx) => {
      await insertItem(tx, draft('cv-rollback'));
      expect(await readContentVersion(tx)).not.toBe(before);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    expect(await readContentVersion(ctx.db)).toBe(before);
  });
});
