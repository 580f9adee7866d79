import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { syncItems, SYNC_WFSTATUS } from './syncItems.ts';
import { reconcile } from './reconcile.ts';
import { LastUpdatedTieError, SyncProtocolError } from './keyset.ts';
import { createMemoryStore, type MemoryStore } from './memoryStore.ts';
import { compareInstants } from './instant.ts';
import {
  createFakeContentService,
  utcMillisFormat,
  type FakeContentService,
  type FakeItem,
  type FakeListQuery,
} from './testing/fakeContentService.ts';
import type { Collection, ItemSource, WfStatus } from './types.ts';

const C: Collection = 'events';
const ALL: WfStatus[] = ['draft', 'readyforvalidation', 'approved', 'rejected', 'archived', 'deleted'];
const SYNCED = new Set(['approved', 'archived', 'deleted']);

/** The mirror as trcid → version. */
function mirror(store: MemoryStore<FakeItem>): Map<string, number> {
  return new Map([...store.snapshot(C)].map(([trcid, item]) => [trcid, item.version]));
}

/**
 * After a successful sync with no writes during it: every approved item is mirrored at its
 * latest version, and anything else mirrored left `approved` for a status sync cannot see.
 */
function expectSynced(service: FakeContentService, store: MemoryStore<FakeItem>): void {
  const approved = service.approved(C);
  const local = mirror(store);
  for (const [trcid, version] of approved) expect(local.get(trcid), `mirror of ${trcid}`).toBe(version);
  const status = new Map(service.all(C).map((i) => [i.trcid, i.wfstatus]));
  for (const trcid of local.keys()) {
    if (!approved.has(trcid)) expect(SYNCED.has(status.get(trcid)!), `${trcid} is ${status.get(trcid)}`).toBe(false);
  }
}

describe('syncItems', () => {
  it('when run first, then it backfills everything with the interface query and saves the largest lastupdated [SYNC-002] [SYNC-004]', async () => {
    const service = createFakeContentService();
    for (let i = 0; i < 5; i++) service.create(C, { wfstatus: 'approved' });
    service.create(C, { wfstatus: 'deleted' });
    service.create(C, { wfstatus: 'readyforvalidation' });
    const store = createMemoryStore<FakeItem>();
    const summary = await syncItems(service, C, store, { size: 3 });

    expect(service.calls[0]!.query).toEqual({
      wfstatus: ['approved', 'archived', 'deleted'],
      sortField: 'lastupdated',
      sortOrder: 'ASC',
      size: 3,
    });
    expect(service.calls[0]!.query).not.toHaveProperty('lastupdated');
    const all = service.all(C);
    const lastSynced = all.filter((i) => SYNCED.has(i.wfstatus)).at(-1)!.lastupdated;
    expect(summary).toMatchObject({ previousMark: undefined, mark: lastSynced, upserted: 5, removed: 0 });
    expect(await store.getMark(C)).toBe(lastSynced);
    expect([...mirror(store).keys()].sort()).toEqual([...service.approved(C).keys()].sort());
  });

  it('when paging, then each next lastupdated is the previous page last item value exactly as sent [PAGE-003] [SYNC-001]', async () => {
    const service = createFakeContentService(); // strict: rejects any re-formatted stamp
    for (let i = 0; i < 9; i++) service.create(C);
    const pagesSeen: FakeItem[][] = [];
    const source: ItemSource<FakeItem> = {
      listItems: async (c, q, o) => {
        const page = await service.listItems(c, q, o);
        pagesSeen.push(page);
        return page;
      },
    };
    await syncItems(source, C, createMemoryStore<FakeItem>(), { size: 4 });
    for (let i = 1; i < service.calls.length; i++) {
      expect(service.calls[i]!.query.lastupdated).toBe(pagesSeen[i - 1]!.at(-1)!.lastupdated);
    }
    // The stamps carry microseconds and +01:00: nothing Date.toISOString would produce.
    expect(service.calls[1]!.query.lastupdated).toMatch(/\.\d{6}\+01:00$/);
  });

  it('when a page is short, then it stops; a page of exactly size items needs one more call [PAGE-001]', async () => {
    const service = createFakeContentService();
    for (let i = 0; i < 6; i++) service.create(C);
    await syncItems(service, C, createMemoryStore<FakeItem>(), { size: 3 });
    // 6 items, size 3: [1,2,3] [3,4,5] [5,6] (boundary items come back).
    expect(service.calls.map((c) => c.query.lastupdated === undefined)).toEqual([true, false, false]);
  });

  it('when the boundary item comes back, then it is not applied twice and the mirror is unchanged [PAGE-005]', async () => {
    const service = createFakeContentService();
    for (let i = 0; i < 4; i++) service.create(C);
    const store = createMemoryStore<FakeItem>();
    const upserts: string[] = [];
    const spy = {
      ...store,
      applyBatch: undefined,
      upsert: async (c: Collection, item: FakeItem) => (upserts.push(item.trcid), store.upsert(c, item)),
    };
    const summary = await syncItems(service, C, spy, { size: 2 });
    // Pages: [1,2] [2,3] [3,4] [4] → 3 repeats, each trcid applied once.
    expect(summary).toMatchObject({ pages: 4, fetched: 7, repeated: 3, upserted: 4 });
    expect(upserts).toEqual(['trc-1', 'trc-2', 'trc-3', 'trc-4']);
    // A second run starts at the mark and re-applies the mark item idempotently.
    const again = await syncItems(service, C, spy, { size: 2 });
    expect(again).toMatchObject({ pages: 1, fetched: 1, upserted: 1, previousMark: summary.mark, mark: summary.mark });
    expectSynced(service, store);
  });

  it('when items are archived or deleted, then the local copy is removed; other statuses are ignored [SYNC-003]', async () => {
    const service = createFakeContentService();
    const [a, b, c] = [service.create(C), service.create(C), service.create(C)];
    const store = createMemoryStore<FakeItem>();
    await syncItems(service, C, store, { size: 10 });
    service.update(a.trcid, { wfstatus: 'archived' });
    service.update(b.trcid, { wfstatus: 'deleted' });
    service.create(C, { wfstatus: 'rejected' });
    service.update(c.trcid, { title: 'changed' });
    const summary = await syncItems(service, C, store, { size: 10 });
    // c was the mark item; its update moved it past the mark, so it is applied once.
    expect(summary).toMatchObject({ removed: 2, upserted: 1, skipped: 0 });
    expect([...store.snapshot(C).values()].map((i) => [i.trcid, i.title])).toEqual([[c.trcid, 'changed']]);
  });

  it('when the source returns statuses it should have filtered, then only synced statuses are applied', async () => {
    const items: FakeItem[] = [
      { id: '1', trcid: 't1', wfstatus: 'approved', lastupdated: '2026-01-01T00:00:00.001Z', version: 1, title: '' },
      { id: '2', trcid: 't2', wfstatus: 'draft', lastupdated: '2026-01-01T00:00:00.002Z', version: 1, title: '' },
    ];
    const store = createMemoryStore<FakeItem>();
    const summary = await syncItems({ listItems: async () => items }, C, store, { size: 5 });
    expect(summary).toMatchObject({ upserted: 1, skipped: 1 });
    expect(await store.listTrcids(C)).toEqual(['t1']);
  });

  it.each([1, 0, -2, 2.5, 2001, Number.NaN])('when size is %s, then it is refused before any call', async (size) => {
    const service = createFakeContentService();
    await expect(syncItems(service, C, createMemoryStore<FakeItem>(), { size })).rejects.toThrow(RangeError);
    expect(service.calls).toHaveLength(0);
  });

  it('when size is 1, then the message explains why it never terminates', async () => {
    await expect(syncItems(createFakeContentService(), C, createMemoryStore<FakeItem>(), { size: 1 })).rejects.toThrow(
      /inclusive lastupdated bound/,
    );
  });

  it('when the n-th call fails, then the old mark stays and the next run converges [SYNC-004]', async () => {
    let failAt = 0;
    const service = createFakeContentService({
      beforeList: (n) => {
        if (n === failAt) throw new Error('connection reset');
      },
    });
    for (let i = 0; i < 5; i++) service.create(C);
    const store = createMemoryStore<FakeItem>();
    await syncItems(service, C, store, { size: 2 });
    const mark = await store.getMark(C);
    for (let i = 0; i < 5; i++) service.create(C);
    failAt = service.calls.length + 3;
    await expect(syncItems(service, C, store, { size: 2 })).rejects.toThrow('connection reset');
    expect(await store.getMark(C)).toBe(mark);
    const summary = await syncItems(service, C, store, { size: 2 });
    expect(summary.previousMark).toBe(mark);
    expect(service.calls.find((c, i) => i >= failAt && c.query.lastupdated === mark)).toBeDefined();
    expectSynced(service, store);
  });

  it('when aborted, then it stops and keeps the old mark', async () => {
    const ac = new AbortController();
    const service = createFakeContentService({ beforeList: (n) => n === 2 && ac.abort() });
    for (let i = 0; i < 6; i++) service.create(C);
    const store = createMemoryStore<FakeItem>();
    await expect(syncItems(service, C, store, { size: 2, signal: ac.signal })).rejects.toThrow();
    expect(await store.getMark(C)).toBeUndefined();
  });

  it('when a full page shares one lastupdated, then it throws LastUpdatedTieError instead of looping', async () => {
    const service = createFakeContentService({ tick: () => 0, format: utcMillisFormat });
    for (let i = 0; i < 3; i++) service.create(C);
    const store = createMemoryStore<FakeItem>();
    const err = await syncItems(service, C, store, { size: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LastUpdatedTieError);
    expect((err as Error).message).toMatch(/service bug.*lastupdated must be unique/);
    expect(service.calls).toHaveLength(1);
    expect(await store.getMark(C)).toBeUndefined();
    // A size larger than the tie group gets past it.
    await syncItems(service, C, store, { size: 4 });
    expectSynced(service, store);
  });

  it('when stamps tie in groups smaller than size, then sync converges', async () => {
    let n = 0;
    const service = createFakeContentService({ tick: () => (n++ % 2 === 0 ? 1000 : 0), format: utcMillisFormat });
    for (let i = 0; i < 9; i++) service.create(C);
    const store = createMemoryStore<FakeItem>();
    const summary = await syncItems(service, C, store, { size: 3 });
    expect(summary.upserted).toBe(9);
    expectSynced(service, store);
  });

  it('when the service breaks order or the inclusive bound, then a SyncProtocolError names it', async () => {
    const mk = (trcid: string, ms: number): FakeItem => ({
      id: trcid,
      trcid,
      wfstatus: 'approved',
      lastupdated: new Date(ms).toISOString(),
      version: 1,
      title: '',
    });
    const store = createMemoryStore<FakeItem>();
    await expect(syncItems({ listItems: async () => [mk('a', 2), mk('b', 1)] }, C, store, { size: 5 })).rejects.toThrow(
      /ascending/,
    );
    await store.putMark(C, new Date(10).toISOString());
    await expect(syncItems({ listItems: async () => [mk('a', 5)] }, C, store, { size: 5 })).rejects.toThrow(
      /before the requested/,
    );
    await expect(
      syncItems({ listItems: async () => [{ trcid: 'x' } as FakeItem] }, C, store, { size: 5 }),
    ).rejects.toThrow(SyncProtocolError);
    expect(await store.getMark(C)).toBe(new Date(10).toISOString());
  });

  it('when pages arrive, then onProgress reports each one', async () => {
    const service = createFakeContentService();
    for (let i = 0; i < 5; i++) service.create(C);
    const seen: number[] = [];
    await syncItems(service, C, createMemoryStore<FakeItem>(), { size: 2, onProgress: (p) => seen.push(p.pages) });
    // [1,2] [2,3] [3,4] [4,5] [5]
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });
});

// ---------------------------------------------------------------- properties against the fake

type Step =
  | { kind: 'create'; status: WfStatus }
  | { kind: 'update'; pick: number; status: WfStatus | null }
  | {
      kind: 'sync';
      size: number;
      failAt: number | null;
      writesDuring: Array<{ atCall: number; pick: number; status: WfStatus | null }>;
    };

const statusArb = fc.constantFrom<WfStatus>(...ALL);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), status: statusArb }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      pick: fc.nat(),
      status: fc.option(statusArb, { nil: null }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('sync' as const),
      size: fc.integer({ min: 2, max: 5 }),
      failAt: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
      writesDuring: fc.array(
        fc.record({
          atCall: fc.integer({ min: 1, max: 4 }),
          pick: fc.nat(),
          status: fc.option(statusArb, { nil: null }),
        }),
        { maxLength: 2 },
      ),
    }),
  },
);

function write(service: FakeContentService, step: { pick: number; status: WfStatus | null }): void {
  const items = service.all(C);
  if (items.length === 0) return;
  const target = items[step.pick % items.length]!;
  service.update(target.trcid, step.status ? { wfstatus: step.status } : {});
}

/** Calls needed for N matching items with unique stamps: each page advances by at most size - 1. */
function callBound(matching: number, size: number): number {
  return Math.ceil(Math.max(matching - 1, 0) / (size - 1)) + 1;
}

describe('syncItems properties', () => {
  it('property: random histories interleaved with sync runs (failures and writes mid-run) end in an exact mirror [SYNC-003] [SYNC-004] [SYNC-006]', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { maxLength: 40 }),
        fc.integer({ min: 2, max: 5 }),
        async (steps, finalSize) => {
          let hook: ((n: number, q: FakeListQuery) => void) | undefined;
          const service = createFakeContentService({
            beforeList: (n, _c, q) => {
              if (n > 10_000) throw new Error('runaway loop');
              hook?.(n, q);
            },
          });
          const store = createMemoryStore<FakeItem>();
          for (const step of steps) {
            if (step.kind === 'create') service.create(C, { wfstatus: step.status });
            else if (step.kind === 'update') write(service, step);
            else {
              const markBefore = await store.getMark(C);
              const first = service.calls.length;
              const matching = service
                .all(C)
                .filter(
                  (i) =>
                    SYNCED.has(i.wfstatus) &&
                    (markBefore === undefined || compareInstants(i.lastupdated, markBefore) >= 0),
                ).length;
              hook = (n) => {
                const call = n - first;
                for (const w of step.writesDuring) if (w.atCall === call) write(service, w);
                if (step.failAt === call) throw new Error(`injected failure at call ${call}`);
              };
              let failed = false;
              try {
                await syncItems(service, C, store, { size: step.size });
              } catch (e) {
                expect(String(e)).toMatch(/injected failure/);
                failed = true;
              }
              hook = undefined;
              const calls = service.calls.length - first;
              if (failed) {
                expect(await store.getMark(C)).toBe(markBefore);
              } else if (step.writesDuring.every((w) => w.atCall > calls)) {
                // Quiet run: exact, and within the paging bound.
                expect(calls).toBeLessThanOrEqual(callBound(matching, step.size));
                expectSynced(service, store);
              }
            }
          }
          await syncItems(service, C, store, { size: finalSize });
          expectSynced(service, store);
          await reconcile(service, C, store, { size: finalSize });
          expect(mirror(store)).toEqual(service.approved(C));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: with tied stamps, a run either converges or stops with LastUpdatedTieError, never loops', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ status: statusArb, tie: fc.boolean() }), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 2, max: 5 }),
        async (creates, size) => {
          const ties = creates.map((c) => c.tie);
          let i = 0;
          const service = createFakeContentService({
            tick: () => (ties[i++] ? 0 : 1000),
            format: utcMillisFormat,
            beforeList: (n) => {
              if (n > 1000) throw new Error('runaway loop');
            },
          });
          for (const c of creates) service.create(C, { wfstatus: c.status });
          const groups = new Map<string, number>();
          for (const item of service.all(C))
            if (SYNCED.has(item.wfstatus)) groups.set(item.lastupdated, (groups.get(item.lastupdated) ?? 0) + 1);
          const largestTie = Math.max(0, ...groups.values());
          const store = createMemoryStore<FakeItem>();
          const result = await syncItems(service, C, store, { size }).catch((e: unknown) => e);
          if (result instanceof Error) {
            expect(result).toBeInstanceOf(LastUpdatedTieError);
            expect(largestTie).toBeGreaterThanOrEqual(size);
            expect(await store.getMark(C)).toBeUndefined();
          } else {
            expectSynced(service, store);
          }
          if (largestTie < size) expect(result).not.toBeInstanceOf(Error);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: the request carries exactly the sync query, and the bound is always a value the service sent [SYNC-002]', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 2, max: 5 }), async (count, size) => {
        const service = createFakeContentService();
        for (let k = 0; k < count; k++) service.create(C);
        await syncItems(service, C, createMemoryStore<FakeItem>(), { size });
        const sent = new Set(service.all(C).map((x) => x.lastupdated));
        for (const { query } of service.calls) {
          expect(Object.keys(query).sort()).toEqual(
            query.lastupdated === undefined
              ? ['size', 'sortField', 'sortOrder', 'wfstatus']
              : ['lastupdated', 'size', 'sortField', 'sortOrder', 'wfstatus'],
          );
          expect(query).toMatchObject({ wfstatus: SYNC_WFSTATUS, sortField: 'lastupdated', sortOrder: 'ASC', size });
          if (query.lastupdated !== undefined) expect(sent.has(query.lastupdated)).toBe(true);
        }
      }),
    );
  });
});
