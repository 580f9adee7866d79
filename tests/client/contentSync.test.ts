// `content-sync --database-url` end to end: the command (in-process `main()`, its real store
// opening) mirrors the reference service into PostgreSQL, and the rows are read back with SQL.
// The service runs on PostgreSQL too, in its own schema; the mirror gets another schema, selected
// through the URL's `options=-c search_path=…`. Skipped only when PostgreSQL is unreachable
// outside CI (client/sync/testing/testPostgres.ts).
//
// A cross-package test, in tests/ like referenceService.test.ts: it starts the reference service
// through its test harness.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { ALL_STATUSES, createTestAccount, createTestToken } from '../../reference-impl/test/support/fixtures.ts';
import { startTestApp, type TestApp } from '../../reference-impl/test/support/testApp.ts';
import { openTestDb, type TestDb } from '../../reference-impl/test/support/storage/testDb.ts';
import { EXIT, main, type CliIo } from '../../client/cli.ts';
import type { CollectionResult, RunSummary } from '../../client/cli/mirror.ts';
import { createContentClient, type ContentClient } from '../../client/http/contentClient.ts';
import { createTestSchema, skipPostgres, type TestSchema } from '../../client/sync/testing/testPostgres.ts';
import type { Collection, ContentItem, WfStatus } from '../../client/sync/types.ts';

const COLLECTIONS_UNDER_TEST = ['events', 'venues'] as const satisfies readonly Collection[];
const SIZE = 10;

interface Known {
  collection: Collection;
  id: string;
  item: ContentItem;
}

interface Row {
  collection: string;
  trcid: string;
  lastupdated: string;
  wfstatus: string;
  item: ContentItem;
}

describe.skipIf(skipPostgres())('content-sync --database-url against the reference service', () => {
  let serviceDb: TestDb;
  let app: TestApp;
  let client: ContentClient;
  let token: string;
  let mirror: TestSchema;
  /** What the service holds, from the answers of our own writes (ordered by write). */
  const known = new Map<string, Known>();

  beforeAll(async () => {
    serviceDb = await openTestDb('postgres');
    app = await startTestApp(serviceDb.db);
    mirror = await createTestSchema('client_cli');
    const accountId = `cli-pg-${randomUUID().slice(0, 8)}`;
    await createTestAccount(serviceDb.db, { accountId, organisations: [`${accountId}-a`] });
    token = (await createTestToken(serviceDb.db, { accountId, wfstatus: ALL_STATUSES })).token;
    client = createContentClient({ baseUrl: app.baseUrl, token });
    // One at a time, so `lastupdated` follows the order of `known`; the last one is approved.
    for (let i = 0; i < 27; i++)
      await create('events', i % 9 === 0 ? 'readyforvalidation' : i % 9 === 1 ? 'archived' : 'approved');
    for (let i = 0; i < 6; i++) await create('venues', 'approved');
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await app?.close();
    await serviceDb?.close();
    await mirror?.drop();
  });

  async function create(collection: 'events' | 'venues', wfstatus: WfStatus): Promise<Known> {
    const body = {
      trcItemDetails: [{ lang: 'nl' as const, title: `${collection} ${randomUUID().slice(0, 8)}` }],
      wfstatus,
    };
    const answer =
      collection === 'events' ? await client.POST('/events', { body }) : await client.POST('/venues', { body });
    if (answer.response.status !== 201 || !answer.data)
      throw new Error(`POST /${collection}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
    const k: Known = { collection, id: answer.data.id!, item: answer.data as ContentItem };
    known.set(k.item.trcid, k);
    return k;
  }

  /** GET-modify-PUT, as an integrator's editor would (read-only fields are ignored, DEC-ITEM-005). */
  async function replace(k: Known, change: { wfstatus?: WfStatus; title?: string }): Promise<void> {
    const current = await client.getItem(k.collection, k.id);
    if (!current) throw new Error(`GET /${k.collection}/${k.id}: 404`);
    const body = {
      ...current,
      wfstatus: change.wfstatus ?? current.wfstatus,
      ...(change.title ? { trcItemDetails: [{ lang: 'nl', title: change.title }] } : {}),
    } as Record<string, unknown>;
    const res = await client.PUT(`/${k.collection}/{id}` as '/events/{id}', {
      params: { path: { id: k.id } },
      body: body as never,
    });
    if (!res.response.ok || !res.data)
      throw new Error(`PUT /${k.collection}/${k.id}: ${res.response.status} ${JSON.stringify(res.error)}`);
    k.item = res.data as ContentItem;
  }

  async function remove(k: Known): Promise<void> {
    const res = await client.DELETE(`/${k.collection}/{id}` as '/events/{id}', { params: { path: { id: k.id } } });
    if (res.response.status !== 204) throw new Error(`DELETE /${k.collection}/${k.id}: ${res.response.status}`);
    k.item = { ...k.item, wfstatus: 'deleted' };
  }

  async function contentSync(): Promise<{ code: number; summary: RunSummary; stderr: string }> {
    let out = '';
    let err = '';
    const io: CliIo = {
      stdout: { write: (t: string) => ((out += t), true) },
      stderr: { write: (t: string) => ((err += t), true) },
      env: {},
      onInterrupt: () => () => {},
    };
    const code = await main(
      [
        '--base-url',
        app.baseUrl,
        '--token',
        token,
        '--database-url',
        mirror.url,
        '--collections',
        COLLECTIONS_UNDER_TEST.join(','),
        '--size',
        String(SIZE),
        '--json',
        '--quiet',
      ],
      io,
    );
    return { code, summary: JSON.parse(out) as RunSummary, stderr: err };
  }

  const result = (summary: RunSummary, collection: Collection): CollectionResult =>
    summary.collections.find((c) => c.collection === collection)!;
  const ofCollection = (collection: Collection) => [...known.values()].filter((k) => k.collection === collection);
  /** The largest `lastupdated` the sync query sees (ISO UTC, DEC-ITEM-009: string order is time order). */
  const expectedMark = (collection: Collection) =>
    ofCollection(collection)
      .filter((k) => k.item.wfstatus !== 'readyforvalidation')
      .map((k) => k.item.lastupdated!)
      .sort()
      .at(-1);

  async function expectExactMirror(): Promise<void> {
    const rows = await mirror.query<Row>(
      'SELECT collection, trcid, lastupdated, wfstatus, item FROM content_sync_items ORDER BY collection, trcid',
    );
    const expected = COLLECTIONS_UNDER_TEST.flatMap((c) =>
      ofCollection(c).filter((k) => k.item.wfstatus === 'approved'),
    )
      .map((k) => ({
        collection: k.collection,
        trcid: k.item.trcid,
        lastupdated: k.item.lastupdated,
        wfstatus: 'approved',
        item: k.item,
      }))
      .sort((a, b) => a.collection.localeCompare(b.collection) || (a.trcid < b.trcid ? -1 : a.trcid > b.trcid ? 1 : 0));
    // Items as the service wrote them, `lastupdated` byte for byte as it sent it (SYNC-001).
    expect(rows).toEqual(expected);
    const marks = await mirror.query<{ collection: string; mark: string }>(
      'SELECT collection, mark FROM content_sync_marks ORDER BY collection',
    );
    expect(marks).toEqual(
      COLLECTIONS_UNDER_TEST.map((c) => ({ collection: c, mark: expectedMark(c) })).sort((a, b) =>
        a.collection.localeCompare(b.collection),
      ),
    );
  }

  it("when run on an empty database, then it creates the tables in the URL's schema and backfills exactly the approved items [SYNC-001] [SYNC-003] [SYNC-004]", async () => {
    const { code, summary, stderr } = await contentSync();
    expect(code).toBe(EXIT.ok);
    expect(stderr).toBe('');
    const events = ofCollection('events');
    // approved and archived are listed (archived ones are removals, of nothing yet); readyforvalidation is not.
    expect(result(summary, 'events')).toMatchObject({
      ok: true,
      previousMark: null,
      fetched: events.filter((k) => k.item.wfstatus !== 'readyforvalidation').length,
      upserted: events.filter((k) => k.item.wfstatus === 'approved').length,
      pages: 3,
    });
    expect(result(summary, 'venues')).toMatchObject({
      ok: true,
      previousMark: null,
      fetched: 6,
      upserted: 6,
      pages: 1,
    });
    const tables = await mirror.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
      [mirror.name],
    );
    expect(tables.map((t) => t.table_name)).toEqual(['content_sync_items', 'content_sync_marks']);
    await expectExactMirror();
  });

  it('when run again after changes, then it fetches only those from the saved marks and the rows are exact again [SYNC-002] [SYNC-003]', async () => {
    const marks = new Map(COLLECTIONS_UNDER_TEST.map((c) => [c, expectedMark(c)]));
    const [retitled, archived, deleted] = ofCollection('events').filter((k) => k.item.wfstatus === 'approved');
    await replace(retitled!, { title: 'changed between runs' });
    await replace(archived!, { wfstatus: 'archived' });
    await remove(deleted!);
    await create('events', 'approved');

    const { code, summary } = await contentSync();
    expect(code).toBe(EXIT.ok);
    // The item at the old mark comes back once (inclusive bound), then the four writes: one page.
    expect(result(summary, 'events')).toMatchObject({
      ok: true,
      previousMark: marks.get('events'),
      fetched: 5,
      upserted: 3,
      removed: 2,
      pages: 1,
    });
    expect(result(summary, 'venues')).toMatchObject({
      ok: true,
      previousMark: marks.get('venues'),
      fetched: 1,
      upserted: 1,
      removed: 0,
      pages: 1,
    });
    await expectExactMirror();
  });
});
