import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { createTestAccount } from '../../../test/support/fixtures.ts';
import { putOntologyOverride } from '../dictionary/putOntologyOverride.ts';
import type { Queryable } from '../db.ts';
import { describeEachEngine } from '../../../test/support/storage/testDb.ts';
import { waitFor } from '../../../test/support/waitFor.ts';
import { readContentVersion } from './contentVersion.ts';
import { insertItem, type InsertItemParams } from './insertItem.ts';
import { lockItemWrites } from './lockItemWrites.ts';
import { storeRenderings } from './staleRenderings.ts';
import { updateItem } from './updateItem.ts';

// Migration 010: the list cache sends a page again only while the content version is the one it
// was rendered at, so every write that can change a list answer must change the version, in its
// own commit; renewing stored renderings changes no answer and must not.

function draft(userorganisation: string): InsertItemParams {
  return {
    trcid: `trc-${randomUUID()}`,
    entitytype: 'EVENEMENT',
    wfstatus: 'approved',
    userorganisation,
    externalId: null,
    title: 'Concert',
    slug: null,
    doc: { trcItemDetails: [{ lang: 'nl', title: 'Concert' }] },
  };
}

const properties = { propertyCategories: [{ id: 'pc-1', name: 'x', datatype: 'yes' }] };
const types = { categorizations: [{ cnetID: '1', categorization: 'x' }] };

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
    expect(
      await changes(async () => {
        current = (await updateItem(ctx.db, {
          ...draft('cv-items'),
          id: item.id,
          trcid: item.trcid,
          wfstatus: 'archived',
        }))!;
      }),
    ).toBe(true);
    expect(
      await changes(() =>
        storeRenderings(ctx.db, [
          { id: item.id, lastupdated: current.lastupdated, rendering: { body: '"x":1', key: 'k' } },
        ]),
      ),
    ).toBe(false);
    expect(await changes(() => ctx.db.query('DELETE FROM items WHERE id = $1', [item.id]))).toBe(true);
  });

  it('when any column of an item but its stored rendering is written, then the version changes (a column added later must join the trigger)', async () => {
    const item = await insertItem(ctx.db, draft('cv-columns'));
    const { rows } = await ctx.db.query<{ column_name: string }>(
      // Generated columns (migration 020's search and tag columns) follow doc and cannot be written.
      `SELECT column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'items' AND is_generated = 'NEVER' ORDER BY column_name`,
    );
    const columns = rows.map((row) => row.column_name);
    expect(columns).toContain('doc');
    for (const column of columns) {
      const changed = await changes(() =>
        ctx.db.query(`UPDATE items SET "${column}" = "${column}" WHERE id = $1`, [item.id]),
      );
      expect({ column, changed }).toEqual({ column, changed: !column.startsWith('rendered_') });
    }
  });

  it('when an ontology override is written or removed, or an organisation added, moved or removed, then the version changes', async () => {
    await createTestAccount(ctx.db, { accountId: 'cv-a', organisations: ['cv-a1'] });
    await createTestAccount(ctx.db, { accountId: 'cv-b', organisations: [] });
    expect(
      await changes(() => putOntologyOverride(ctx.db, { kind: 'properties', accountId: 'cv-a', ontology: properties })),
    ).toBe(true);
    expect(
      await changes(() => putOntologyOverride(ctx.db, { kind: 'types', accountId: 'cv-a', ontology: types })),
    ).toBe(true);
    expect(await changes(() => createTestAccount(ctx.db, { accountId: 'cv-b', organisations: ['cv-b1'] }))).toBe(true);
    expect(
      await changes(() =>
        ctx.db.query('UPDATE organisations SET account_id = $1 WHERE userorganisation = $2', ['cv-b', 'cv-a1']),
      ),
    ).toBe(true);
    expect(
      await changes(() => ctx.db.query('DELETE FROM account_property_ontologies WHERE account_id = $1', ['cv-a'])),
    ).toBe(true);
    expect(
      await changes(() => ctx.db.query('DELETE FROM account_type_ontologies WHERE account_id = $1', ['cv-a'])),
    ).toBe(true);
    expect(await changes(() => ctx.db.query('DELETE FROM organisations WHERE userorganisation = $1', ['cv-b1']))).toBe(
      true,
    );
  });

  it('when history is lost (a write rolled back, as a restore loses commits), then the next write does not hand out the lost version again, as a counter would', async () => {
    let lost: string | undefined;
    await expect(
      ctx.db.transaction(async (tx) => {
        await insertItem(tx, draft('cv-unique'));
        lost = await readContentVersion(tx);
        throw new Error('history lost');
      }),
    ).rejects.toThrow('history lost');
    await insertItem(ctx.db, draft('cv-unique'));
    expect(lost).toBeDefined();
    expect(await readContentVersion(ctx.db)).not.toBe(lost);
  });

  it('when a write is rolled back, then the version is the one before it', async () => {
    const before = await readContentVersion(ctx.db);
    await expect(
      ctx.db.transaction(async (tx) => {
        await insertItem(tx, draft('cv-rollback'));
        expect(await readContentVersion(tx)).not.toBe(before);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await readContentVersion(ctx.db)).toBe(before);
  });
});

// PGlite runs one transaction at a time: only PostgreSQL has writers side by side.
describeEachEngine(
  'content version lock order (migration 010)',
  (ctx) => {
    it('when ontology and organisation writes queue behind an item write, then they hold no per-account lock of migration 008 yet: one lock order, so no deadlock', async () => {
      await createTestAccount(ctx.db, { accountId: 'cv-order', organisations: [] });
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding!: () => void;
      const held = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const itemWriter = ctx.db.transaction(async (tx) => {
        await lockItemWrites(tx);
        holding();
        await released;
      });
      await held;
      const pids: number[] = [];
      const queued = (write: (tx: Queryable) => Promise<unknown>) =>
        ctx.db.transaction(async (tx) => {
          pids.push((await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
          await write(tx);
        });
      const writers = [
        queued((tx) => putOntologyOverride(tx, { kind: 'properties', accountId: 'cv-order', ontology: properties })),
        queued((tx) => createTestAccount(tx, { accountId: 'cv-order', organisations: ['cv-order-1'] })),
      ];
      await waitFor(
        'both writers waiting for a lock',
        async () =>
          pids.length === 2 &&
          (
            await ctx.db.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND pid = ANY($1::int[])',
              [pids],
            )
          ).rows[0]!.n === 2,
      );
      const accountLockFree = await ctx.db.transaction(
        async (tx) =>
          (
            await tx.query<{ free: boolean }>(
              `SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || ':ontology_key:' || $1)::bigint) AS free`,
              ['cv-order'],
            )
          ).rows[0]!.free,
      );
      release();
      await Promise.all([itemWriter, ...writers]);
      expect(accountLockFree).toBe(true);
    });
  },
  ['postgres'],
);
