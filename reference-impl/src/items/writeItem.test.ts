import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { putPropertiesOntology } from '../storage/dictionary/putPropertiesOntology.ts';
import { getItemById } from '../storage/items/getItemById.ts';
import type { StoredItem } from '../storage/items/itemRow.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { createTestAccount } from '../../test/support/fixtures.ts';
import type { ItemChange } from '../webhooks/itemChange.ts';
import { softDeleteItem } from './itemWrites.ts';
import { createOntologyCache } from '../dictionary/ontologyCache.ts';
import { writeItem, type ItemWriteDeps, type ItemWriter } from './writeItem.ts';

// The item service without HTTP, as the feed import calls it.

async function account(
  db: Parameters<typeof createTestAccount>[0],
): Promise<{ accountId: string; organisation: string; writer: ItemWriter }> {
  const accountId = `acc-${randomUUID().slice(0, 12)}`;
  const organisation = `${accountId}-org`;
  await createTestAccount(db, { accountId, organisations: [organisation] });
  return {
    accountId,
    organisation,
    writer: { organisations: [organisation], accountOrganisations: [organisation], wfstatus: 'all' },
  };
}

describeEachEngine('writeItem', (ctx) => {
  const changes: ItemChange[] = [];
  const deps = (): ItemWriteDeps => ({
    recordItemChange: async (tx, change) => {
      // Called with the write's own transaction: the item is visible through it already.
      const seen = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM items WHERE id = $1', [change.itemId]);
      expect(seen.rows[0]!.n).toBe(1);
      changes.push(change);
    },
    ontologies: createOntologyCache(ctx.db),
  });

  it('when a feed writes by externalId, then it creates the item once and replaces it afterwards, seeing the current item [WF-006] [ITEM-016] [DEC-ITEM-020]', async () => {
    const { writer, organisation } = await account(ctx.db);
    const externalId = `uitagenda:${randomUUID()}`;
    const seenCurrent: Array<string | null> = [];
    const write = (title: string) =>
      writeItem(ctx.db, deps(), {
        collection: 'events',
        writer,
        match: { externalId },
        externalId,
        body: (current: StoredItem | null) => {
          seenCurrent.push(current?.wfstatus ?? null);
          return { trcItemDetails: [{ lang: 'nl', title }] };
        },
      });
    const first = await write('Eerste');
    expect(first.previous).toBeNull();
    expect(first.item).toMatchObject({
      externalId,
      wfstatus: 'readyforvalidation',
      userorganisation: organisation,
      title: 'Eerste',
    });
    const second = await write('Tweede');
    expect(second.previous?.id).toBe(first.item.id);
    expect(second.item).toMatchObject({ id: first.item.id, trcid: first.item.trcid, externalId, title: 'Tweede' });
    expect(seenCurrent).toEqual([null, 'readyforvalidation']);
    expect(changes.filter((c) => c.itemId === first.item.id).map((c) => c.action)).toEqual(['UPDATED', 'UPDATED']);
  });

  it('when an API write carries externalId, then it is ignored on create and the stored one kept on replace [DEC-ITEM-020]', async () => {
    const { writer } = await account(ctx.db);
    const externalId = `feed:${randomUUID()}`;
    const created = await writeItem(ctx.db, deps(), {
      collection: 'locations',
      writer,
      body: { externalId: 'forged:1' },
    });
    expect(created.item.externalId).toBeNull();
    const fed = await writeItem(ctx.db, deps(), {
      collection: 'locations',
      writer,
      match: { externalId },
      externalId,
      body: {},
    });
    const replaced = await writeItem(ctx.db, deps(), {
      collection: 'locations',
      writer,
      match: { id: fed.item.id },
      body: { externalId: 'forged:2' },
    });
    expect(replaced.item.externalId).toBe(externalId);
  });

  it("when the externalId belongs to another collection's item, then 409 [DEC-FEED-003]", async () => {
    const { writer } = await account(ctx.db);
    const externalId = `feed:${randomUUID()}`;
    await writeItem(ctx.db, deps(), { collection: 'events', writer, match: { externalId }, externalId, body: {} });
    const clash = await writeItem(ctx.db, deps(), {
      collection: 'routes',
      writer,
      match: { externalId },
      externalId,
      body: {},
    }).catch((e: unknown) => e);
    expect(clash).toMatchObject({ status: 409 });
  });

  it("when a write moves an item to another account, then the categories are stored as the NEW owner's ontology keeps them [ONTO-004] [ONTO-008] [DEC-ITEM-018]", async () => {
    const from = await account(ctx.db);
    const to = await account(ctx.db);
    await putPropertiesOntology(ctx.db, {
      accountId: to.accountId,
      ontology: {
        propertyCategories: [
          {
            id: 'pc-1',
            name: 'Eigen',
            datatype: 'yes',
            propertytranslations: [],
            properties: [{ id: 'p-own', name: 'Aantal', datatype: 'integer', propertytranslations: [] }],
          },
        ],
      },
    });
    const superAdmin: ItemWriter = { organisations: 'all', accountOrganisations: [from.organisation], wfstatus: 'all' };
    const category = { catid: 'p-own', value: '3', categoryTranslations: [{ lang: 'nl', value: 'drie' }] };
    const created = await writeItem(ctx.db, deps(), {
      collection: 'events',
      writer: superAdmin,
      body: { trcItemCategories: { categories: [category] } },
    });
    // Unknown to the base ontology: the per-language value is kept (it might be freetext).
    expect((created.item.doc.trcItemCategories as any).categories[0].categoryTranslations).toEqual([
      { lang: 'nl', value: 'drie' },
    ]);
    // The body names no organisation, so the owner is only known inside the transaction: the write starts again for it.
    const moved = await writeItem(ctx.db, deps(), {
      collection: 'events',
      writer: superAdmin,
      match: { id: created.item.id },
      body: () => ({ userorganisation: to.organisation, trcItemCategories: { categories: [category] } }),
    });
    expect(moved.item.userorganisation).toBe(to.organisation);
    expect((moved.item.doc.trcItemCategories as any).categories[0]).toEqual({ catid: 'p-own', value: '3' });
    expect(changes.filter((c) => c.itemId === created.item.id)).toHaveLength(2);
  });

  it('when an item is soft-deleted, then only its status and lastupdated change and DELETED is recorded [DEC-ITEM-003] [DEC-HOOK-003]', async () => {
    const { writer } = await account(ctx.db);
    const created = await writeItem(ctx.db, deps(), {
      collection: 'venues',
      writer,
      body: { wfstatus: 'approved', trcItemCategories: { categories: [{ catid: 'p-1501', value: '5' }] } },
    });
    const deleted = await softDeleteItem(ctx.db, deps(), { collection: 'venues', id: created.item.id, writer });
    expect(deleted).toEqual({ ...created.item, wfstatus: 'deleted', lastupdated: deleted.lastupdated });
    expect(deleted.lastupdated.getTime()).toBeGreaterThan(created.item.lastupdated.getTime());
    expect(await getItemById(ctx.db, { entitytype: 'VENUE', id: created.item.id })).toEqual(deleted);
    expect(changes.filter((c) => c.itemId === created.item.id).map((c) => c.action)).toEqual(['UPDATED', 'DELETED']);
    await expect(
      softDeleteItem(ctx.db, deps(), { collection: 'venues', id: created.item.id, writer }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
