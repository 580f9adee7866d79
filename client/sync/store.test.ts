import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createMemoryStore } from './memoryStore.ts';
import { createSqlStore, pgPoolDatabase, type PgPoolLike, type SqlDatabase } from './sqlStore.ts';
import { applyOps, type StoreOp, type SyncStore } from './store.ts';
import { syncItems } from './syncItems.ts';
import { reconcile } from './reconcile.ts';
import { createFakeContentService, type FakeItem } from './testing/fakeContentService.ts';
import { createTestSchema, skipPostgres, type TestSchema } from './testing/testPostgres.ts';
import type { Collection, SyncItem } from './types.ts';

// The SQL store runs on PGlite and on PostgreSQL (TEST_DATABASE_URL, default the local server) in
// a schema of this file's own, dropped afterwards; PostgreSQL is skipped only when unreachable
// outside CI (see testing/testPostgres.ts).
const ON_PG = !skipPostgres();
let pglite: PGlite;
let schema: TestSchema | undefined;
let pool: pg.Pool | undefined;
let pgSetupError: unknown;
let prefixes = 0;
beforeAll(async () => {
  pglite = await PGlite.create();
  // A failed setup (unreachable with CI=true) fails each PostgreSQL test, not the whole file.
  if (ON_PG) {
    try {
      schema = await createTestSchema('client_store');
      pool = new pg.Pool({ connectionString: schema.url, max: 2 });
    } catch (error) {
      pgSetupError = error;
    }
  }
});
afterAll(async () => {
  await pglite.close();
  await pool?.end();
  await schema?.drop();
});

const freshSql = <T extends SyncItem>() =>
  createSqlStore<T>({ db: pglite as unknown as SqlDatabase, prefix: `t${++prefixes}_` });
const freshPg = <T extends SyncItem>() => {
  if (pgSetupError !== undefined) throw pgSetupError;
  return createSqlStore<T>({ db: pgPoolDatabase(pool as unknown as PgPoolLike), prefix: `t${++prefixes}_` });
};

const kinds: Array<[string, <T extends SyncItem>() => SyncStore<T>]> = [
  ['memory', () => createMemoryStore()],
  ['sql (PGlite)', freshSql],
  ...(ON_PG ? [['sql (PostgreSQL)', freshPg] as [string, <T extends SyncItem>() => SyncStore<T>]] : []),
];

// Extra fields stand for everything a real item carries beyond what sync reads.
type TestItem = SyncItem & Record<string, unknown>;
const item = (trcid: string, extra: Record<string, unknown> = {}): TestItem => ({
  trcid,
  wfstatus: 'approved',
  lastupdated: '2026-03-01T11:00:00.123456+01:00',
  trcItemDetails: [{ lang: 'nl', title: `Titel ${trcid}`, shortdescription: 'Grüße 🌍' }],
  ...extra,
});

describe.each(kinds)('%s store', (_name, make) => {
  it('when nothing is saved, then getMark is undefined; putMark keeps the exact string per collection', async () => {
    const store = make();
    expect(await store.getMark('events')).toBeUndefined();
    await store.putMark('events', '2026-03-01T11:00:00.123456+01:00');
    await store.putMark('events', '2026-03-01T11:00:00.999999+01:00');
    await store.putMark('venues', '2026-01-01T00:00:00Z');
    expect(await store.getMark('events')).toBe('2026-03-01T11:00:00.999999+01:00');
    expect(await store.getMark('venues')).toBe('2026-01-01T00:00:00Z');
    expect(await store.getMark('routes')).toBeUndefined();
  });

  it('when items are upserted and removed, then they are keyed by trcid per collection', async () => {
    const store = make();
    await store.upsert('events', item('a'));
    await store.upsert('events', item('a', { slug: 'second' }));
    await store.upsert('events', item('b'));
    await store.upsert('locations', item('a'));
    expect((await store.listTrcids('events')).sort()).toEqual(['a', 'b']);
    expect(await store.getItem('events', 'a')).toEqual(item('a', { slug: 'second' }));
    expect(await store.remove('events', 'a')).toBe(true);
    expect(await store.remove('events', 'a')).toBe(false);
    expect(await store.listTrcids('events')).toEqual(['b']);
    expect(await store.listTrcids('locations')).toEqual(['a']);
    expect(await store.getItem('events', 'a')).toBeUndefined();
  });

  it('when a batch is applied, then it counts upserts and actual removals', async () => {
    const store = make();
    await store.upsert('events', item('x'));
    const ops: StoreOp<TestItem>[] = [
      { op: 'upsert', trcid: 'y', item: item('y') },
      { op: 'remove', trcid: 'x' },
      { op: 'remove', trcid: 'never-there' },
      { op: 'upsert', trcid: 'y', item: item('y', { slug: 'later wins' }) },
    ];
    expect(await applyOps(store, 'events', ops)).toEqual({ upserted: 2, removed: 1 });
    expect(await store.getItem('events', 'y')).toMatchObject({ slug: 'later wins' });
  });

  it('property: after any sequence of operations the store equals a Map model', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('upsert' as const), trcid: fc.constantFrom('a', 'b', 'c'), n: fc.nat() }),
            fc.record({ op: fc.constant('remove' as const), trcid: fc.constantFrom('a', 'b', 'c') }),
          ),
          {
            maxLength: 12,
          },
        ),
        async (ops) => {
          const store = make();
          const model = new Map<string, SyncItem>();
          const batch: StoreOp<TestItem>[] = ops.map((o) =>
            o.op === 'upsert'
              ? { op: 'upsert', trcid: o.trcid, item: item(o.trcid, { n: o.n }) }
              : { op: 'remove', trcid: o.trcid },
          );
          for (const o of batch)
            if (o.op === 'upsert') model.set(o.item.trcid, o.item);
            else model.delete(o.trcid);
          await applyOps(store, 'events', batch);
          expect((await store.listTrcids('events')).sort()).toEqual([...model.keys()].sort());
          for (const [trcid, v] of model) expect(await store.getItem('events', trcid)).toEqual(v);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('when used by syncItems and reconcile, then the mirror converges [SYNC-003] [SYNC-006]', async () => {
    const service = createFakeContentService();
    const store = make<FakeItem>();
    const C: Collection = 'events';
    for (let i = 0; i < 30; i++) service.create(C, { wfstatus: i % 5 === 0 ? 'readyforvalidation' : 'approved' });
    await syncItems(service, C, store, { size: 7 });
    const trcids = service.all(C).map((i) => i.trcid);
    service.update(trcids[1]!, { wfstatus: 'deleted' });
    service.update(trcids[2]!, { wfstatus: 'rejected' }); // invisible to sync, caught by reconcile
    service.update(trcids[3]!, { title: 'new title' });
    service.update(trcids[0]!, { wfstatus: 'approved' });
    await syncItems(service, C, store, { size: 7 });
    expect(await store.getItem(C, trcids[2]!)).toBeDefined();
    const rec = await reconcile(service, C, store, { size: 7 });
    expect(rec.missing).toEqual([trcids[2]]);
    const local = new Map<string, number>();
    for (const t of await store.listTrcids(C)) local.set(t, (await store.getItem(C, t))!.version);
    expect(local).toEqual(service.approved(C));
    expect((await store.getItem(C, trcids[3]!))!.title).toBe('new title');
  });
});

describe('createSqlStore', () => {
  it('when the prefix is not a plain identifier, then it is refused', () => {
    expect(() => createSqlStore({ db: pglite as unknown as SqlDatabase, prefix: 'x; DROP TABLE y; --' })).toThrow(
      RangeError,
    );
  });

  it.each([['PGlite', () => freshSql()], ...(ON_PG ? [['PostgreSQL', () => freshPg()] as const] : [])] as const)(
    'when a batch fails half way on %s, then nothing of it is written',
    async (_name, make) => {
      const store = make();
      await store.upsert('events', item('kept'));
      const bad = { trcid: 'bad', toJSON: () => undefined } as unknown as SyncItem; // serialises to no JSON: the INSERT fails
      await expect(
        store.applyBatch('events', [
          { op: 'remove', trcid: 'kept' },
          { op: 'upsert', trcid: 'new', item: item('new') },
          { op: 'upsert', trcid: bad.trcid, item: bad },
        ]),
      ).rejects.toThrow();
      expect(await store.listTrcids('events')).toEqual(['kept']);
    },
  );

  it.each([['PGlite', () => freshSql()], ...(ON_PG ? [['PostgreSQL', () => freshPg()] as const] : [])] as const)(
    'when a page is written from item texts on %s, then each is stored as written; a text holding a raw U+001E is refused whole',
    async (_name, make) => {
      const store = make();
      const texts = [
        '{"trcid":"a","lastupdated":"2026-01-01T00:00:00Z","x":[1,{"y":"\\u001e,\\"]"}]}',
        '{ "trcid" : "b" ,\n "nested" : { "list" : [ ] }, "naam": "Fietsroute één 🚲" }',
      ];
      await store.applyBatch(
        'events',
        texts.map((text) => {
          const parsed = JSON.parse(text) as TestItem;
          return {
            op: 'upsert' as const,
            trcid: parsed.trcid,
            lastupdated: parsed.lastupdated,
            item: parsed,
            json: Buffer.from(text),
          };
        }),
      );
      expect(await store.getItem('events', 'a')).toEqual(JSON.parse(texts[0]!));
      expect(await store.getItem('events', 'b')).toEqual(JSON.parse(texts[1]!));
      const raw = Buffer.from('{"trcid":"c","x":"\u001e"}'); // a control character unescaped: not JSON
      await expect(
        store.applyBatch('events', [
          { op: 'remove', trcid: 'a' },
          { op: 'upsert', trcid: 'c', item: { trcid: 'c' } as TestItem, json: raw },
        ]),
      ).rejects.toThrow(/U\+001E/);
      // Bytes that are not UTF-8: PostgreSQL refuses them, and the batch with them.
      await expect(
        store.applyBatch('events', [
          { op: 'remove', trcid: 'a' },
          { op: 'upsert', trcid: 'd', item: { trcid: 'd' } as TestItem, json: Buffer.from([0x22, 0xff, 0x22]) },
        ]),
      ).rejects.toThrow();
      expect(await store.listTrcids('events')).toEqual(['a', 'b']);
    },
  );

  it.skipIf(!ON_PG)(
    "when a store is created on PostgreSQL, then its tables live in this file's own schema",
    async () => {
      const store = freshPg();
      await store.upsert('events', item('in-schema'));
      const tables = await schema!.query<{ table_schema: string }>(
        'SELECT table_schema FROM information_schema.tables WHERE table_name = $1',
        [store.tables.items],
      );
      expect(tables).toEqual([{ table_schema: schema!.name }]);
      expect(await schema!.query(`SELECT trcid FROM ${store.tables.items}`)).toEqual([{ trcid: 'in-schema' }]);
    },
  );

  it('when a store is created, then items are kept as json, exactly as written', async () => {
    const store = freshSql();
    await store.upsert('events', item('a', { z: 1, a: 2 }));
    const { rows } = await pglite.query<{ type: string; text: string }>(
      `SELECT pg_typeof(item)::text AS type, item::text AS text FROM ${store.tables.items}`,
    );
    expect(rows).toEqual([{ type: 'json', text: JSON.stringify(item('a', { z: 1, a: 2 })) }]);
  });

  it('when a mirror was made with an item jsonb column, then the store reads and writes it as before', async () => {
    const prefix = `t${++prefixes}_`;
    await pglite.query(`CREATE TABLE ${prefix}items (
      collection text NOT NULL, trcid text NOT NULL, lastupdated text, wfstatus text, item jsonb NOT NULL,
      synced_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (collection, trcid))`);
    const store = createSqlStore<TestItem>({ db: pglite as unknown as SqlDatabase, prefix });
    await store.upsert('events', item('one'));
    await store.applyBatch('events', [
      { op: 'upsert', trcid: 'two', item: item('two') },
      { op: 'upsert', trcid: 'one', item: item('one', { slug: 'again' }) },
    ]);
    expect(await store.getItem('events', 'one')).toEqual(item('one', { slug: 'again' }));
    expect(await store.getItem('events', 'two')).toEqual(item('two'));
    const { rows } = await pglite.query<{ type: string }>(
      `SELECT DISTINCT pg_typeof(item)::text AS type FROM ${prefix}items`,
    );
    expect(rows).toEqual([{ type: 'jsonb' }]);
  });

  it('when two stores use different prefixes, then their tables are separate', async () => {
    const a = freshSql();
    const b = freshSql();
    await a.upsert('events', item('only-in-a'));
    expect(await b.listTrcids('events')).toEqual([]);
    expect(a.tables.items).not.toBe(b.tables.items);
  });
});

describe('createMemoryStore', () => {
  it('when a page write gives each item as a view into the page, then the store keeps a copy, not the page', async () => {
    const store = createMemoryStore();
    const page = Buffer.from('[{"trcid":"a","lastupdated":"2026-01-01T00:00:00Z","wfstatus":"approved"}]');
    const json = page.subarray(1, page.length - 1);
    await store.applyBatch('events', [{ op: 'upsert', trcid: 'a', item: JSON.parse(json.toString()), json }]);
    page.fill(0x20);
    expect(await store.getItem('events', 'a')).toEqual({
      trcid: 'a',
      lastupdated: '2026-01-01T00:00:00Z',
      wfstatus: 'approved',
    });
  });
});
