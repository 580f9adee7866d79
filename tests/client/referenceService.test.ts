// The typed client and the sync procedure against the reference service, started in-process over
// PostgreSQL (PGlite if unreachable outside CI): a backfill of a few thousand items written
// through the typed client, then changes, archivals, deletions and new items, re-synced into an
// exact mirror; then reconciliation with a live-only token, which cannot see removals, catching
// what the incremental sync missed.
//
// A cross-package test: it starts the reference service through its test harness, so it lives in
// tests/ (which may import anything), not in client/ (which imports only generated/).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { ALL_STATUSES, createTestAccount, createTestToken } from '../../reference-impl/test/support/fixtures.ts';
import { startTestApp, type TestApp } from '../../reference-impl/test/support/testApp.ts';
import { openTestDb, skipPostgres, type TestDb } from '../../reference-impl/test/support/storage/testDb.ts';
import type { WaitEvent } from '../../client/http/retry.ts';
import { createTransport, type Transport } from '../../client/http/transport.ts';
import { createContentClient, type ContentClient } from '../../client/http/contentClient.ts';
import { createMemoryStore } from '../../client/sync/memoryStore.ts';
import { reconcile } from '../../client/sync/reconcile.ts';
import { syncItems } from '../../client/sync/syncItems.ts';
import { COLLECTIONS, type Collection, type ContentItem, type WfStatus } from '../../client/sync/types.ts';

const ITEMS = Number(process.env.CLIENT_IT_ITEMS ?? 3000);
// PostgreSQL (TEST_DATABASE_URL, a schema of its own) writes the items in about half the time of
// PGlite, which shares this process's thread; PGlite only when PostgreSQL is unreachable outside CI.
const ENGINE = skipPostgres() ? 'pglite' : 'postgres';
const SHARES: Record<Collection, number> = { events: 0.5, locations: 0.2, routes: 0.1, eventgroups: 0.1, venues: 0.1 };
const SIZE = 250; // several pages in most collections, so paging and the boundary repeats are exercised
const POOL = 8;

interface Known {
  collection: Collection;
  id: string;
  trcid: string;
  wfstatus: WfStatus;
  item: ContentItem;
}

let testDb: TestDb;
let app: TestApp;
let transport: Transport;
let full: ContentClient;
let live: ContentClient;
const waits: WaitEvent[] = [];
/** What the service holds, kept from the answers of our own writes. */
const known = new Map<string, Known>();

/** Runs `fn` over `inputs` with at most `limit` in flight. */
async function pool<T, R>(inputs: readonly T[], limit: number, fn: (input: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(inputs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, inputs.length) }, async () => {
      while (next < inputs.length) {
        const i = next++;
        results[i] = await fn(inputs[i]!);
      }
    }),
  );
  return results;
}

const title = (label: string) => ({
  trcItemDetails: [{ lang: 'nl' as const, title: `${label} ${randomUUID().slice(0, 8)}` }],
});

async function create(collection: Collection, wfstatus: WfStatus): Promise<void> {
  const body = { ...title(collection), wfstatus };
  const answer =
    collection === 'events'
      ? await full.POST('/events', { body })
      : collection === 'locations'
        ? await full.POST('/locations', { body })
        : collection === 'routes'
          ? await full.POST('/routes', { body })
          : collection === 'eventgroups'
            ? await full.POST('/eventgroups', { body })
            : await full.POST('/venues', { body });
  if (answer.response.status !== 201 || !answer.data)
    throw new Error(`POST /${collection}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  const item = answer.data as ContentItem;
  known.set(item.trcid, { collection, id: item.id!, trcid: item.trcid, wfstatus: item.wfstatus!, item });
}

/**
 * PUT the item back with a new title and/or status: a GET-modify-PUT round trip, which the
 * service allows (read-only fields are ignored, DEC-ITEM-005) but the write types refuse, hence
 * the casts; one typed path stands for the five collections, whose PUT and DELETE are alike.
 */
async function replace(k: Known, change: { wfstatus?: WfStatus; retitle?: boolean }): Promise<void> {
  const current = await full.getItem(k.collection, k.id);
  if (!current) throw new Error(`GET /${k.collection}/${k.id}: 404`);
  const body = {
    ...current,
    ...(change.retitle ? title('changed') : {}),
    wfstatus: change.wfstatus ?? current.wfstatus,
  } as Record<string, unknown>;
  const res = await full.PUT(`/${k.collection}/{id}` as '/events/{id}', {
    params: { path: { id: k.id } },
    body: body as never,
  });
  if (!res.response.ok || !res.data)
    throw new Error(`PUT /${k.collection}/${k.id}: ${res.response.status} ${JSON.stringify(res.error)}`);
  k.item = res.data as ContentItem;
  k.wfstatus = k.item.wfstatus!;
}

async function remove(k: Known): Promise<void> {
  const res = await full.DELETE(`/${k.collection}/{id}` as '/events/{id}', { params: { path: { id: k.id } } });
  if (res.response.status !== 204) throw new Error(`DELETE /${k.collection}/${k.id}: ${res.response.status}`);
  k.wfstatus = 'deleted';
}

const approvedOf = (collection: Collection) =>
  new Map(
    [...known.values()]
      .filter((k) => k.collection === collection && k.wfstatus === 'approved')
      .map((k) => [k.trcid, k.item]),
  );

/** Takes `n` known items of the collection in one status, in a stable order, each at most once per test step. */
function take(collection: Collection, wfstatus: WfStatus, n: number, used: Set<string>): Known[] {
  const picked = [...known.values()]
    .filter((k) => k.collection === collection && k.wfstatus === wfstatus && !used.has(k.trcid))
    .slice(0, n);
  for (const k of picked) used.add(k.trcid);
  return picked;
}

beforeAll(async () => {
  testDb = await openTestDb(ENGINE);
  app = await startTestApp(testDb.db);
  const accountId = `client-it-${randomUUID().slice(0, 8)}`;
  await createTestAccount(testDb.db, { accountId, organisations: [`${accountId}-a`, `${accountId}-b`] });
  const fullToken = (await createTestToken(testDb.db, { accountId, wfstatus: ALL_STATUSES })).token;
  const liveToken = (await createTestToken(testDb.db, { accountId })).token;
  transport = createTransport({ retry: { onWait: (w) => waits.push(w) } });
  full = createContentClient({ baseUrl: app.baseUrl, token: fullToken, transport });
  live = createContentClient({ baseUrl: app.baseUrl, token: liveToken, transport });

  // Mostly approved; a few waiting for validation, which the sync must not mirror.
  const plan = COLLECTIONS.flatMap((c) =>
    Array.from(
      { length: Math.round(ITEMS * SHARES[c]) },
      (_, i) => [c, i % 25 === 24 ? 'readyforvalidation' : 'approved'] as const,
    ),
  );
  await pool(plan, POOL, ([c, s]) => create(c, s));
}, 600_000);

afterAll(async () => {
  await full?.close();
  await live?.close();
  await transport?.close();
  await app?.close();
  await testDb?.close();
});

describe('sync against the reference service', () => {
  const store = createMemoryStore();

  const expectExactMirror = async () => {
    for (const c of COLLECTIONS) {
      const local = store.snapshot(c);
      const expected = approvedOf(c);
      expect([...local.keys()].sort(), c).toEqual([...expected.keys()].sort());
      // The list renders items exactly as the write answers (= detail reads) did.
      for (const [trcid, item] of expected) expect(local.get(trcid), `${c} ${trcid}`).toEqual(item);
    }
  };

  it(`when syncing ${ITEMS} items from scratch, then every collection is an exact mirror of its approved items and the mark is the largest lastupdated [SYNC-001] [SYNC-003] [SYNC-004]`, async () => {
    const started = performance.now();
    // Sync everything first, then check: a failed check must not leave later collections unsynced.
    const summaries = [];
    for (const c of COLLECTIONS) summaries.push(await syncItems(full, c, store, { size: SIZE }));
    const seconds = (performance.now() - started) / 1000;
    const fetched = summaries.reduce((n, s) => n + s.fetched - s.repeated, 0);
    console.info(
      `backfill through the typed client: ${fetched} items in ${seconds.toFixed(2)} s (${Math.round(fetched / seconds)} items/s), ${waits.length} throttled waits`,
    );
    for (const summary of summaries) {
      const c = summary.collection;
      expect(summary.previousMark).toBeUndefined();
      // Items waiting for validation are not even listed: the query asks approved, archived, deleted.
      // Each page after the first starts with the previous page's last item again (inclusive bound).
      expect([summary.fetched - summary.repeated, summary.upserted, summary.skipped, summary.repeated], c).toEqual([
        approvedOf(c).size,
        approvedOf(c).size,
        0,
        summary.pages - 1,
      ]);
      const stamps = [...known.values()]
        .filter((k) => k.collection === c && k.wfstatus === 'approved')
        .map((k) => k.item.lastupdated!)
        .sort();
      expect(summary.mark).toBe(stamps.at(-1));
      expect(await store.getMark(c)).toBe(summary.mark);
    }
    await expectExactMirror();
  }, 300_000);

  it('when items are changed, archived, deleted and added, then a re-sync fetches only those and the mirror is exact again [SYNC-002] [SYNC-003] [PAGE-005]', async () => {
    const used = new Set<string>();
    const per = Math.max(4, Math.round(ITEMS / 30));
    for (const c of COLLECTIONS) {
      const share = Math.max(1, Math.round(per * SHARES[c] * 2));
      await pool(take(c, 'approved', share, used), POOL, (k) => replace(k, { retitle: true }));
      await pool(take(c, 'approved', share, used), POOL, (k) => replace(k, { wfstatus: 'archived' }));
      await pool(take(c, 'approved', share, used), POOL, (k) => remove(k));
      // Approved later: reaches the mirror now.
      await pool(take(c, 'readyforvalidation', 2, used), POOL, (k) => replace(k, { wfstatus: 'approved' }));
      await pool(Array.from({ length: share }), POOL, () => create(c, 'approved'));
    }
    const previousMarks = new Map<Collection, string | undefined>();
    const summaries = [];
    for (const c of COLLECTIONS) {
      previousMarks.set(c, await store.getMark(c));
      summaries.push(await syncItems(full, c, store, { size: SIZE }));
    }
    for (const summary of summaries) {
      const c = summary.collection;
      const previous = previousMarks.get(c);
      // Stamps are ISO UTC with three fraction digits (DEC-ITEM-009): string order is time order.
      const written = [...known.values()].filter(
        (k) => k.collection === c && k.item.lastupdated! > previous! && k.wfstatus !== 'readyforvalidation',
      ).length;
      // A DELETE answers 204 without the new stamp: the deleted items are counted apart.
      const deletedNow = (k: Known) => used.has(k.trcid) && k.wfstatus === 'deleted';
      const deleted = [...known.values()].filter((k) => k.collection === c && deletedNow(k)).length;
      // The inclusive bound returns the item at the old mark once more, unless it changed since.
      const boundary = [...known.values()].filter(
        (k) => k.collection === c && k.item.lastupdated === previous && !deletedNow(k),
      ).length;
      expect(summary.fetched - summary.repeated, c).toBe(written + deleted + boundary);
      expect(summary.removed, c).toBe(
        [...known.values()].filter(
          (k) => k.collection === c && used.has(k.trcid) && (k.wfstatus === 'archived' || k.wfstatus === 'deleted'),
        ).length,
      );
    }
    await expectExactMirror();
  }, 300_000);

  it('when a live-only token syncs, then removals stay invisible to it, and reconciliation with it removes them [SYNC-005] [SYNC-006]', async () => {
    const used = new Set<string>();
    const gone = [
      ...take('events', 'approved', 3, used).map((k) => remove(k)),
      ...take('locations', 'approved', 2, used).map((k) => replace(k, { wfstatus: 'archived' })),
      // Leaving approved for rejected is invisible to any incremental sync.
      ...take('venues', 'approved', 2, used).map((k) => replace(k, { wfstatus: 'rejected' })),
    ];
    await Promise.all(gone);
    for (const c of COLLECTIONS) {
      const summary = await syncItems(live, c, store, { size: SIZE });
      expect(summary.removed, c).toBe(0);
    }
    const stale = [...used].filter((t) => !approvedOf(known.get(t)!.collection).has(t));
    expect(stale).toHaveLength(7);
    for (const trcid of stale) expect(await store.getItem(known.get(trcid)!.collection, trcid)).toBeDefined();

    let removed = 0;
    for (const c of COLLECTIONS) {
      const summary = await reconcile(live, c, store, { size: SIZE });
      expect(summary.published, c).toBe(approvedOf(c).size);
      removed += summary.removed;
    }
    expect(removed).toBe(7);
    await expectExactMirror();
  }, 300_000);

  it('when a detail read follows a webhook resourceUri, then the item comes back, and a deleted one is undefined', async () => {
    const [present] = take('events', 'approved', 1, new Set());
    const resourceUri = `${app.config.publicBaseUrl}/events/${present!.id}`;
    expect((await full.getResource(resourceUri))?.trcid).toBe(present!.trcid);
    const deleted = [...known.values()].find((k) => k.wfstatus === 'deleted')!;
    expect(await full.getResource(`${app.config.publicBaseUrl}/${deleted.collection}/${deleted.id}`)).toBeUndefined();
  });
});
