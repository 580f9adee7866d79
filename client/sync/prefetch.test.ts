// The prefetching keyset reader against any server: a fake service that hands out raw bodies in
// styles that make the guessed bound right, absent or wrong, with ties across page boundaries,
// items changing during the run, short pages and failures mid-run.

import { PGlite } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareInstants } from './instant.ts';
import { keysetPages, LastUpdatedTieError, stampInBody } from './keyset.ts';
import { createMemoryStore } from './memoryStore.ts';
import { createSqlStore, type SqlDatabase } from './sqlStore.ts';
import type { StoreOp, SyncStore } from './store.ts';
import { syncItems, SYNC_WFSTATUS, type SyncSummary } from './syncItems.ts';
import {
  createFakeContentService,
  utcMillisFormat,
  type FakeContentService,
  type FakeItem,
} from './testing/fakeContentService.ts';
import type { Collection, ItemSource, WfStatus } from './types.ts';

const C: Collection = 'events';
const ALL: WfStatus[] = ['draft', 'readyforvalidation', 'approved', 'rejected', 'archived', 'deleted'];
const SYNCED = new Set<string>(SYNC_WFSTATUS);

/** How the fake writes a page: the guessed bound is right (compact), absent (pretty, escaped) or wrong (nested). */
type BodyStyle = 'compact' | 'pretty' | 'escaped' | 'nested';
const STYLES: BodyStyle[] = ['compact', 'pretty', 'escaped', 'nested'];

function writeBody(items: FakeItem[], style: BodyStyle): string {
  if (style === 'pretty') return JSON.stringify(items, null, 1);
  if (style === 'nested')
    // A later member holding another item's stamp: the last "lastupdated" in the body is not the mark.
    return JSON.stringify(items.map((item) => ({ ...item, related: { lastupdated: items[0]!.lastupdated } })));
  const text = JSON.stringify(items);
  if (style === 'compact' || items.length === 0) return text;
  // The last stamp with an escaped character: the same string once parsed, not guessable raw.
  const stamp = items.at(-1)!.lastupdated;
  const at = text.lastIndexOf(JSON.stringify(stamp));
  return `${text.slice(0, at)}"\\u00${stamp.charCodeAt(0).toString(16)}${stamp.slice(1)}"${text.slice(at + stamp.length + 2)}`;
}

/** The same service without raw bodies: the request-by-request reference. */
const parsedOnly = (service: FakeContentService): ItemSource<FakeItem> => ({
  listItems: (c, q, o) => service.listItems(c, q, o),
});

/**
 * A store that fails the test when a run applies the same (trcid, lastupdated) twice, and whose
 * page writes take `delays` milliseconds in turn, so that writes running at once finish in any order.
 */
function countingStore<T extends FakeItem>(
  inner: SyncStore<T>,
  delays: readonly number[],
  parallelWrites = 2,
): SyncStore<T> & { newRun(): void } {
  let writes = 0;
  let applied = new Set<string>();
  const note = (ops: readonly StoreOp<T>[]) => {
    for (const op of ops) {
      if (op.op !== 'upsert') continue;
      const key = `${op.item.trcid} ${op.item.lastupdated}`;
      expect(applied.has(key), `${key} applied twice in one run`).toBe(false);
      applied.add(key);
    }
  };
  return {
    ...inner,
    parallelWrites,
    newRun: () => void (applied = new Set()),
    async applyBatch(c, ops) {
      note(ops);
      await new Promise((resolve) => setTimeout(resolve, delays[writes++ % delays.length]));
      return inner.applyBatch!(c, ops);
    },
  };
}

let pglite: PGlite;
let prefixes = 0;
beforeAll(async () => {
  pglite = await PGlite.create();
});
afterAll(async () => {
  await pglite.close();
});

describe('keysetPages prefetching', () => {
  it('when the body has lastupdated members, then stampInBody reads the value of the first or last one in the bytes', () => {
    const nested = Buffer.from('[{"id":"a","lastupdated":"1"},{"id":"b","lastupdated":"2","x":{"lastupdated":"0"}}]');
    expect(stampInBody(nested, 'last')).toBe('0');
    expect(stampInBody(nested, 'first')).toBe('1');
    expect(stampInBody(Buffer.from('[{"id":"a","lastupdated":"1"},{"id":"b","lastupdated":"2"}]'), 'last')).toBe('2');
  });

  it('when there is no such member or its value holds an escape, then stampInBody guesses nothing', () => {
    expect(stampInBody(Buffer.from('[]'), 'last')).toBeUndefined();
    expect(stampInBody(Buffer.from('[{"id":"a","lastupdated": "1"}]'), 'last')).toBeUndefined();
    expect(stampInBody(Buffer.from('[{"id":"a","lastupdated":"1\\"2"}]'), 'last')).toBeUndefined();
    expect(stampInBody(Buffer.from('[{"lastupdated":"2026\\u002d01"}]'), 'first')).toBeUndefined();
  });

  it('property: with raw bodies in any style, the pages are those of the request-by-request procedure (ties across page boundaries, short pages)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ status: fc.constantFrom(...ALL), tie: fc.boolean() }), { maxLength: 30 }),
        fc.integer({ min: 2, max: 5 }),
        fc.array(fc.constantFrom(...STYLES), { minLength: 1, maxLength: 6 }),
        async (creates, size, styles) => {
          let i = 0;
          const service = createFakeContentService({
            tick: () => (creates[i++]?.tie ? 0 : 1000),
            format: utcMillisFormat,
            writeBody: (items, call) => writeBody(items, styles[call % styles.length]!),
          });
          for (const c of creates) service.create(C, { wfstatus: c.status });
          const read = async (source: ItemSource<FakeItem>) => {
            const pages: unknown[] = [];
            try {
              for await (const page of keysetPages(source, C, SYNC_WFSTATUS, { size })) {
                const key = (items: FakeItem[]) => items.map((it) => `${it.trcid}@${it.version}`);
                pages.push({ from: page.from, items: key(page.items), fresh: key(page.fresh) });
              }
            } catch (error) {
              if (!(error instanceof LastUpdatedTieError)) throw error;
              pages.push('tie');
            }
            return pages;
          };
          const expected = await read(parsedOnly(service));
          const sequentialCalls = service.calls.length;
          expect(await read(service)).toEqual(expected);
          // At most one extra request per page used (a wrong guess or the one after the short page).
          expect(service.calls.length - sequentialCalls).toBeLessThanOrEqual(2 * sequentialCalls);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('when an item changes while the page holding it is still being written, then its new version lands last', async () => {
    let hook: (() => void) | undefined;
    const service = createFakeContentService({ beforeList: (call) => call === 2 && hook?.() });
    const [, second] = [1, 2, 3, 4].map(() => service.create(C));
    // Asked for while page 1 is written: item 2 moves to the end and comes again on page 2.
    hook = () => void service.update(second!.trcid);
    // Page 1's write takes longer than page 2's.
    const store = countingStore(createMemoryStore<FakeItem>(), [20, 0]);
    await syncItems(service, C, store, { size: 3 });
    expect((await store.getItem(C, second!.trcid))?.version).toBe(2);
  });

  it('property: runs with writes and failures mid-run, page writes finishing in any order, lose nothing, apply nothing twice, and keep the mark when they fail [SYNC-004]', async () => {
    const writeArb = fc.record({
      atCall: fc.integer({ min: 1, max: 8 }),
      pick: fc.nat(),
      status: fc.option(fc.constantFrom(...ALL), { nil: null }),
      create: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ status: fc.constantFrom(...ALL), tie: fc.boolean() }), { maxLength: 25 }),
        fc.array(
          fc.record({
            size: fc.integer({ min: 3, max: 6 }),
            failAt: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
            writes: fc.array(writeArb, { maxLength: 3 }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.array(fc.constantFrom(...STYLES), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 4 }),
        async (creates, runs, styles, sql, delays) => {
          // Ties only in pairs, smaller than every size: a run never stops on LastUpdatedTieError.
          let n = 0;
          let hook: ((call: number) => void) | undefined;
          const service = createFakeContentService({
            tick: () => (n++ % 2 === 1 && creates[n >> 1]?.tie ? 0 : 1000),
            format: utcMillisFormat,
            writeBody: (items, call) => writeBody(items, styles[call % styles.length]!),
            beforeList: (call) => hook?.(call),
          });
          for (const c of creates) service.create(C, { wfstatus: c.status });
          const inner = sql
            ? createSqlStore<FakeItem>({ db: pglite as unknown as SqlDatabase, prefix: `p${++prefixes}_` })
            : createMemoryStore<FakeItem>();
          // PGlite runs one transaction at a time on its one connection.
          const store = countingStore(inner, delays, sql ? 1 : 2);

          for (const run of runs) {
            const markBefore = await store.getMark(C);
            const first = service.calls.length;
            const touched = new Set<string>();
            hook = (call) => {
              const k = call - first;
              for (const w of run.writes) {
                if (w.atCall !== k) continue;
                if (w.create) touched.add(service.create(C, { wfstatus: w.status ?? 'approved' }).trcid);
                else {
                  const all = service.all(C);
                  if (all.length === 0) continue;
                  const target = all[w.pick % all.length]!;
                  touched.add(target.trcid);
                  service.update(target.trcid, w.status ? { wfstatus: w.status } : {});
                }
              }
              if (run.failAt === k) throw new Error(`injected failure at call ${k}`);
            };
            store.newRun();
            const outcome: SyncSummary | unknown = await syncItems(service, C, store, { size: run.size }).catch(
              (e: unknown) => e,
            );
            hook = undefined;
            if (outcome instanceof Error) {
              expect(outcome.message).toMatch(/injected failure/);
              expect(await store.getMark(C)).toBe(markBefore);
              continue;
            }
            // Nothing lost: every item not written during the run is as the service has it.
            const local = new Set(await store.listTrcids(C));
            for (const item of service.all(C)) {
              if (touched.has(item.trcid) || !SYNCED.has(item.wfstatus)) continue;
              if (item.wfstatus === 'approved')
                expect((await store.getItem(C, item.trcid))?.version).toBe(item.version);
              else expect(local.has(item.trcid), `${item.trcid} is ${item.wfstatus}`).toBe(false);
            }
            const newest = service
              .all(C)
              .filter((i) => SYNCED.has(i.wfstatus))
              .map((i) => i.lastupdated)
              .sort(compareInstants)
              .at(-1);
            // The mark never goes back: an earlier run may have received an item that has since
            // left the synced statuses, newer than every synced item now.
            const expectedMark = [newest, markBefore]
              .filter((m) => m !== undefined)
              .sort(compareInstants)
              .at(-1);
            if (touched.size === 0) expect((outcome as SyncSummary).mark).toBe(expectedMark);
          }
          // A last quiet run converges: the mirror is the service's approved items.
          store.newRun();
          await syncItems(service, C, store, { size: 6 });
          const mirrored = new Map<string, number>();
          for (const trcid of await store.listTrcids(C)) {
            const kept = (await store.getItem(C, trcid))!;
            expect(kept.trcid, 'the item kept under its own trcid').toBe(trcid);
            mirrored.set(trcid, kept.version);
          }
          const approved = service.approved(C);
          for (const [trcid, version] of approved) expect(mirrored.get(trcid), trcid).toBe(version);
          const statusOf = new Map(service.all(C).map((i) => [i.trcid, i.wfstatus]));
          for (const trcid of mirrored.keys())
            if (!approved.has(trcid)) expect(SYNCED.has(statusOf.get(trcid)!), trcid).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  }, 60_000);
});
