import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/storage/testDb.ts';
import { getItemById } from './getItemById.ts';
import { insertItem } from './insertItem.ts';
import { lockItemWrites } from './lockItemWrites.ts';
import { updateItem } from './updateItem.ts';

describeEachEngine('lockItemWrites', (ctx) => {
  it('when concurrent read-modify-write transactions take the lock first, then no update is lost', async () => {
    const item = await insertItem(ctx.db, {
      trcid: `trc-${randomUUID()}`,
      entitytype: 'ROUTE',
      wfstatus: 'approved',
      userorganisation: 'org-lock',
      externalId: null,
      title: null,
      slug: null,
      doc: { performers: [] },
    });
    await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        ctx.db.transaction(async (tx) => {
          await lockItemWrites(tx);
          const current = (await getItemById(tx, { entitytype: 'ROUTE', id: item.id }))!;
          await new Promise((resolve) => setTimeout(resolve, 2));
          const performers = [...(current.doc.performers as unknown[]), { label: `p${n}` }];
          await updateItem(tx, { ...current, doc: { performers } });
        }),
      ),
    );
    const final = await getItemById(ctx.db, { entitytype: 'ROUTE', id: item.id });
    expect((final!.doc.performers as unknown[]).length).toBe(12);
  });
});
