import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Db } from '../db.ts';
import { describeEachEngine } from '../../../test/support/storage/testDb.ts';
import { insertItem, type InsertItemParams } from './insertItem.ts';
import type { StoredItem } from './itemRow.ts';
import { listItems } from './listItems.ts';
import { updateItem } from './updateItem.ts';

// lastupdated is unique, strictly increasing across the store and in commit order (DEC-ITEM-009),
// so the interface's keyset sync (inclusive `lastupdated >= mark`, ASC) always advances and never
// misses a change.

function draft(userorganisation: string): InsertItemParams {
  return {
    trcid: `trc-${randomUUID()}`,
    entitytype: 'EVENEMENT',
    wfstatus: 'approved',
    userorganisation,
    externalId: null,
    title: null,
    slug: null,
    doc: {},
  };
}

/** The interface's sync procedure (SYNC-001…SYNC-004) over storage: pages until one is short. */
async function sync(
  db: Db,
  userorganisation: string,
  size: number,
  mark?: Date,
): Promise<{ seen: StoredItem[]; requests: number; mark?: Date }> {
  const seen: StoredItem[] = [];
  let requests = 0;
  for (;;) {
    const page = await listItems(db, {
      entitytype: 'EVENEMENT',
      scope: { userorganisations: [userorganisation], wfstatus: 'all' },
      wfstatus: ['approved', 'archived', 'deleted'],
      sortField: 'lastupdated',
      sortOrder: 'ASC',
      lastupdatedFrom: mark,
      limit: size,
    });
    requests++;
    if (requests > 10_000) throw new Error('sync does not terminate');
    seen.push(...page);
    if (page.length > 0) mark = page.at(-1)!.lastupdated;
    if (page.length < size) return { seen, requests, mark };
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describeEachEngine('lastupdated stamping', (ctx) => {
  it('when 3×size items are written in one transaction, then every stamp is distinct and increasing [DEC-ITEM-009] [ITEM-006]', async () => {
    const o = `org-${randomUUID()}`,
      size = 25;
    const written = await ctx.db.transaction(async (tx) => {
      const out: StoredItem[] = [];
      for (let i = 0; i < 3 * size; i++) out.push(await insertItem(tx, draft(o)));
      return out;
    });
    const stamps = written.map((i) => i.lastupdated.getTime());
    expect(new Set(stamps).size).toBe(3 * size);
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    for (const item of written) expect(item.lastupdated.getUTCMilliseconds()).toBe(item.lastupdated.getTime() % 1000);
  });

  it('when 3×size items are written concurrently, then the keyset sync with that size returns each once plus boundary repeats only [PAGE-003] [PAGE-004] [DEC-ITEM-009]', async () => {
    const o = `org-${randomUUID()}`,
      size = 10;
    const written = await Promise.all(Array.from({ length: 3 * size }, () => insertItem(ctx.db, draft(o))));
    expect(new Set(written.map((i) => i.lastupdated.getTime())).size).toBe(3 * size);

    const { seen, requests } = await sync(ctx.db, o, size);
    const ids = seen.map((i) => i.id);
    expect(new Set(ids)).toEqual(new Set(written.map((i) => i.id)));
    // Each page repeats only the previous page's last item.
    expect(ids.length - new Set(ids).size).toBe(requests - 1);
    expect(requests).toBeLessThanOrEqual(Math.ceil((3 * size) / (size - 1)) + 1);
  });

  it('when an item is updated after a sync, then the next sync from the mark returns it again [SYNC-001] [PAGE-004]', async () => {
    const o = `org-${randomUUID()}`;
    const items = [
      await insertItem(ctx.db, draft(o)),
      await insertItem(ctx.db, draft(o)),
      await insertItem(ctx.db, draft(o)),
    ];
    const first = await sync(ctx.db, o, 5);
    const changed = await updateItem(ctx.db, {
      ...draft(o),
      id: items[0]!.id,
      trcid: items[0]!.trcid,
      wfstatus: 'archived',
    });
    const second = await sync(ctx.db, o, 5, first.mark);
    expect(second.seen.map((i) => [i.id, i.wfstatus])).toEqual([
      [items[2]!.id, 'approved'],
      [changed!.id, 'archived'],
    ]);
  });
});

describeEachEngine(
  'lastupdated stamping under concurrent commits',
  (ctx) => {
    it('when a transaction that started first commits last, then a reader that synced in between still gets its item [DEC-ITEM-009] [SYNC-001]', async () => {
      const o = `org-${randomUUID()}`;
      const started = deferred(),
        release = deferred();
      // T1 begins (its now() is fixed from here) and waits; T2 writes and commits meanwhile.
      const t1 = ctx.db.transaction(async (tx) => {
        await tx.query('SELECT now()');
        started.resolve();
        await release.promise;
        return insertItem(tx, draft(o));
      });
      await started.promise;
      let t2Item, between;
      try {
        t2Item = await ctx.db.transaction((tx) => insertItem(tx, draft(o)));
        between = await sync(ctx.db, o, 10);
        expect(between.seen.map((i) => i.id)).toEqual([t2Item.id]);
      } finally {
        release.resolve(); // never leave T1 open: the Db could not close
      }
      const t1Item = await t1;
      expect(t1Item.lastupdated.getTime()).toBeGreaterThan(t2Item.lastupdated.getTime());
      const after = await sync(ctx.db, o, 10, between.mark);
      expect(after.seen.map((i) => i.id)).toEqual([t2Item.id, t1Item.id]);
    });

    it('when the first to stamp commits last, then the second writer waits for it and a reader between commits misses nothing [DEC-ITEM-009] [SYNC-001]', async () => {
      const o = `org-${randomUUID()}`;
      const stamped = deferred(),
        release = deferred();
      const t1 = ctx.db.transaction(async (tx) => {
        const item = await insertItem(tx, draft(o));
        stamped.resolve();
        await release.promise;
        return item;
      });
      await stamped.promise;
      let t2Done = false;
      const t2 = ctx.db
        .transaction((tx) => insertItem(tx, draft(o)))
        .then((item) => {
          t2Done = true;
          return item;
        });

      let before;
      try {
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(t2Done).toBe(false); // T2 cannot stamp while T1 holds the stamp row
        before = await sync(ctx.db, o, 10);
        expect(before.seen).toEqual([]);
      } finally {
        release.resolve(); // never leave T1 open: the Db could not close
      }
      const [t1Item, t2Item] = await Promise.all([t1, t2]);
      expect(t2Item.lastupdated.getTime()).toBeGreaterThan(t1Item.lastupdated.getTime());
      const after = await sync(ctx.db, o, 10, before.mark);
      expect(after.seen.map((i) => i.id)).toEqual([t1Item.id, t2Item.id]);
    });

    it('when many writers interleave with a reader that syncs repeatedly, then the reader ends with every item [DEC-ITEM-009] [SYNC-004]', async () => {
      const o = `org-${randomUUID()}`;
      const written: string[] = [];
      const writers = Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 6; i++) {
          const item = await ctx.db.transaction(async (tx) => {
            const inserted = await insertItem(tx, draft(o));
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
            return inserted;
          });
          written.push(item.id);
        }
      });
      const mirror = new Set<string>();
      let mark: Date | undefined,
        done = false;
      const reader = (async () => {
        while (!done) {
          const run = await sync(ctx.db, o, 3, mark);
          for (const item of run.seen) mirror.add(item.id);
          mark = run.mark ?? mark;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      await Promise.all(writers);
      done = true;
      await reader;
      const last = await sync(ctx.db, o, 3, mark);
      for (const item of last.seen) mirror.add(item.id);
      expect(mirror).toEqual(new Set(written));
    });
  },
  ['postgres'],
);
