import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPartnerServer, writeFeedsFile, type PartnerServer } from '../../test/support/feeds/partnerServer.ts';
import { client, newTestAccount, superAdminToken, type TestAccount } from '../../test/support/items/itemsHarness.ts';
import { responseProblems } from '../../test/support/items/responseSchemas.ts';
import { getItemByExternalId } from '../storage/items/getItemByExternalId.ts';
import type { StoredItem } from '../storage/items/itemRow.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { createTestToken } from '../../test/support/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';
import type { ItemChange } from '../webhooks/itemChange.ts';

// Inbound feeds end to end: a local HTTPS partner with a self-signed certificate, trusted through
// the feed's caFile, and the service importing from it. Each test has its own feed (and so its
// own externalIds), so tests do not see each other's items.

const FEED_IDS = [
  'new',
  'overwrite',
  'approved',
  'rejected',
  'size',
  'subfeeds',
  'external',
  'unchanged',
  'categories',
  'async',
  'busy',
  'broken',
  'shape',
  'down',
  'invalid',
  'scope',
  'orphan',
  'misowned',
  'deep',
  'writers',
] as const;
type FeedId = (typeof FEED_IDS)[number];

interface FeedRunBody {
  runId: string;
  feedId: string;
  status: 'running' | 'completed' | 'failed';
  startedAt: string;
  finishedAt?: string;
  fetched: number;
  converted: number;
  imported: { created: number; updated: number; unchanged: number };
  skipped: number;
  unmappedCategories: Array<{ externalId: string; value: string }>;
  errors: Array<{ externalId?: string; message: string }>;
}

/** A valid partner entry: a TRCItem-shaped event with the partner's id (DEC-FEED-001). */
function entry(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    trcItemDetails: [{ lang: 'nl', title: `Titel ${id}`, shortdescription: `Kort ${id}` }],
    calendar: { singleDates: [{ date: '2027-05-01T20:00:00', when: [{ timestart: '20:00', timeend: '22:00' }] }] },
    priceElements: [{ description: { value: 'adult', priceDescriptionValue: 'Volwassenen' }, from: 12.5, till: 12.5 }],
    ...overrides,
  };
}

describeEachEngine('inbound feeds', (ctx) => {
  let app: TestApp;
  let partner: PartnerServer;
  let feedsFile: { path: string; remove(): void };
  let account: TestAccount;
  let other: TestAccount;
  let superAdmin: string;
  let externalAdmin: string;
  const changes: ItemChange[] = [];
  const name = (feed: FeedId) => `partner-${feed}`;

  beforeAll(async () => {
    partner = await startPartnerServer();
    account = await newTestAccount(ctx.db);
    other = await newTestAccount(ctx.db);
    superAdmin = await superAdminToken(ctx.db, other.accountId);
    externalAdmin = (await createTestToken(ctx.db, { accountId: account.accountId, roles: ['ROLE_EXTERNAL_USER'] }))
      .token;
    feedsFile = writeFeedsFile(
      FEED_IDS.map((id) => ({
        id,
        name: name(id),
        accountId: id === 'misowned' ? other.accountId : account.accountId,
        userorganisation: id === 'orphan' ? 'no-such-organisation' : account.organisations[0],
        url: partner.url(`/${id}.json`),
        ...(id === 'subfeeds'
          ? {
              subFeeds: [
                { feedInfoId: 'musea' },
                { feedInfoId: 'theater' },
                { feedInfoId: 'festivals', url: partner.url('/subfeeds-festivals.json') },
              ],
            }
          : {}),
      })),
      partner.cert,
    );
    app = await startTestApp(ctx.db, {
      env: { FEEDS_FILE: feedsFile.path, RATE_LIMIT_ENABLED: 'false' },
      // A recording outbox: imports must record their changes like any other write.
      deps: {
        recordItemChange: async (_tx, change) => {
          changes.push(change);
        },
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await partner?.close();
    feedsFile?.remove();
  });

  const admin = () => client(app.baseUrl, account.admin);
  const serve = (feed: FeedId, entries: unknown[]) => partner.serve(`/${feed}.json`, { body: { entries } });
  const item = async (feed: FeedId, partnerId: string): Promise<StoredItem | null> =>
    getItemByExternalId(ctx.db, { externalId: `${name(feed)}:${partnerId}` });
  async function run(
    feed: FeedId,
    query = 'size=1000',
    token = account.admin,
  ): Promise<{ status: number; body: FeedRunBody; headers: Headers }> {
    const answer = await client(app.baseUrl, token).post<FeedRunBody>(
      `/feeds/${feed}/fetchAndConvertOnce${query === '' ? '' : `?${query}`}`,
      undefined,
    );
    if (answer.status === 200) expect(responseProblems('fetchAndConvertFeedOnce', 200, answer.body)).toEqual([]);
    return answer;
  }
  async function runUntilDone(feed: FeedId, runId: string): Promise<FeedRunBody> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const answer = await admin().get<FeedRunBody>(`/feeds/${feed}/runs/${runId}`);
      expect(answer.status).toBe(200);
      expect(responseProblems('getFeedRun', 200, answer.body)).toEqual([]);
      if (answer.body.status !== 'running') return answer.body;
      if (Date.now() > deadline) throw new Error(`run ${runId} still running after 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  describe('POST /feeds/{feedID}/fetchAndConvertOnce: import rules', () => {
    it('when entries are new, then items are created in readyforvalidation with externalId <feed name>:<partner id>, whatever status the partner sent [WF-006] [ITEM-016] [DEC-FEED-003] [FEED-008]', async () => {
      serve('new', [entry('ev-1', { wfstatus: 'approved' }), entry('ev-2')]);
      const answer = await run('new');
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        feedId: 'new',
        status: 'completed',
        fetched: 2,
        converted: 2,
        imported: { created: 2, updated: 0, unchanged: 0 },
        skipped: 0,
        errors: [],
      });
      expect(answer.body.finishedAt).toMatch(/Z$/);
      const stored = (await item('new', 'ev-1'))!;
      expect(stored).toMatchObject({
        wfstatus: 'readyforvalidation',
        externalId: 'partner-new:ev-1',
        userorganisation: account.organisations[0],
        title: 'Titel ev-1',
      });
      const read = await client(app.baseUrl, account.full).get(`/events/${stored.id}`);
      expect(read.body).toMatchObject({
        externalId: 'partner-new:ev-1',
        wfstatus: 'readyforvalidation',
        published: false,
        entitytype: 'EVENEMENT',
      });
      expect(read.body).not.toHaveProperty('id', 'ev-1');
      expect(partner.requests).toContain('/new.json');
    });

    it('when a feed creates an item and an editor then writes it, then createdby stays feed:<name>, lastupdatedby follows the writer and lastimportedon the import [DEC-ITEM-171] [DEC-ITEM-172]', async () => {
      serve('writers', [entry('ev-1')]);
      const startedAt = new Date().toISOString();
      await run('writers');
      const stored = (await item('writers', 'ev-1'))!;
      const editor = client(app.baseUrl, account.full);
      const imported = (await editor.get(`/events/${stored.id}`)).body;
      expect(imported).toMatchObject({ createdby: 'feed:partner-writers', lastupdatedby: 'feed:partner-writers' });
      expect(imported.lastimportedon >= startedAt).toBe(true);

      const written = await editor.put(`/events/${stored.id}`, {
        ...imported,
        trcItemDetails: [{ lang: 'nl', title: 'Titel van de redactie' }],
      });
      expect(written.status).toBe(200);
      expect(written.body).toMatchObject({
        createdby: 'feed:partner-writers',
        lastimportedon: imported.lastimportedon,
      });
      expect(written.body.lastupdatedby).not.toBe('feed:partner-writers');

      serve('writers', [entry('ev-1', { trcItemDetails: [{ lang: 'nl', title: 'Titel van de partner' }] })]);
      expect((await run('writers')).body.imported).toEqual({ created: 0, updated: 1, unchanged: 0 });
      const reimported = (await editor.get(`/events/${stored.id}`)).body;
      expect(reimported).toMatchObject({ createdby: 'feed:partner-writers', lastupdatedby: 'feed:partner-writers' });
      expect(reimported.lastimportedon > imported.lastimportedon).toBe(true);
    });

    it('when an item is imported, then its webhook change is recorded like any other write [HOOK-002]', async () => {
      serve('new', [entry('ev-hook')]);
      await run('new', 'externalID=ev-hook');
      const stored = (await item('new', 'ev-hook'))!;
      expect(changes.filter((c) => c.itemId === stored.id)).toEqual([
        {
          itemId: stored.id,
          trcid: stored.trcid,
          entitytype: 'EVENEMENT',
          userorganisation: account.organisations[0],
          action: 'UPDATED',
        },
      ]);
    });

    it('when an item waiting in readyforvalidation is fed again, then every field is overwritten [FEED-001]', async () => {
      serve('overwrite', [
        entry('ev-1', {
          files: [
            { hlink: 'https://partner.example/img/one.jpg', filename: 'one.jpg', filetype: 'jpg', mediatype: 'photo' },
          ],
          performers: [{ label: 'Band A' }],
          slug: 'eerste-versie',
        }),
      ]);
      await run('overwrite');
      const first = (await item('overwrite', 'ev-1'))!;
      serve('overwrite', [
        entry('ev-1', {
          trcItemDetails: [{ lang: 'nl', title: 'Nieuwe titel', longdescription: 'Lang' }],
          calendar: { calendarType: 'ALWAYSOPEN' },
        }),
      ]);
      const answer = await run('overwrite');
      expect(answer.body.imported).toEqual({ created: 0, updated: 1, unchanged: 0 });
      const second = (await item('overwrite', 'ev-1'))!;
      expect(second).toMatchObject({
        id: first.id,
        trcid: first.trcid,
        wfstatus: 'readyforvalidation',
        title: 'Nieuwe titel',
        slug: null,
        externalId: 'partner-overwrite:ev-1',
      });
      expect(second.doc.trcItemDetails).toEqual([{ lang: 'nl', title: 'Nieuwe titel', longdescription: 'Lang' }]);
      expect(second.doc).not.toHaveProperty('files');
      expect(second.doc).not.toHaveProperty('performers');
      expect(second.doc.calendar).toEqual({ calendarType: 'ALWAYSOPEN' });
    });

    it('when an approved item is fed again, then only calendar and priceElements change and every editor change is kept [FEED-002]', async () => {
      serve('approved', [
        entry('ev-1', {
          files: [
            {
              hlink: 'https://partner.example/img/partner.jpg',
              filename: 'partner.jpg',
              filetype: 'jpg',
              mediatype: 'photo',
            },
          ],
        }),
      ]);
      await run('approved');
      const imported = (await item('approved', 'ev-1'))!;
      // An editor rewrites title, description and media, and approves.
      const editor = client(app.baseUrl, account.full);
      const current = (await editor.get(`/events/${imported.id}`)).body;
      const edited = {
        ...current,
        wfstatus: 'approved',
        trcItemDetails: [{ lang: 'nl', title: 'Titel van de redactie', shortdescription: 'Tekst van de redactie' }],
        files: [
          {
            hlink: 'https://content.example/img/editor.jpg',
            filename: 'editor.jpg',
            filetype: 'jpg',
            mediatype: 'photo',
            main: true,
          },
        ],
      };
      expect((await editor.put(`/events/${imported.id}`, edited)).status).toBe(200);

      const calendar = {
        singleDates: [{ date: '2027-06-12T19:30:00', when: [{ timestart: '19:30', timeend: '23:00' }] }],
      };
      const priceElements = [
        { description: { value: 'adult', priceDescriptionValue: 'Volwassenen' }, from: 20, till: 25 },
      ];
      serve('approved', [
        entry('ev-1', {
          trcItemDetails: [{ lang: 'nl', title: 'Titel van de partner', shortdescription: 'Partnertekst' }],
          files: [
            { hlink: 'https://partner.example/img/new.jpg', filename: 'new.jpg', filetype: 'jpg', mediatype: 'photo' },
          ],
          calendar,
          priceElements,
        }),
      ]);
      const answer = await run('approved');
      expect(answer.body.imported).toEqual({ created: 0, updated: 1, unchanged: 0 });
      const after = (await editor.get(`/events/${imported.id}`)).body;
      expect(after).toMatchObject({
        wfstatus: 'approved',
        externalId: 'partner-approved:ev-1',
        trcItemDetails: [{ lang: 'nl', title: 'Titel van de redactie', shortdescription: 'Tekst van de redactie' }],
        files: [
          {
            hlink: 'https://content.example/img/editor.jpg',
            filename: 'editor.jpg',
            filetype: 'jpg',
            mediatype: 'photo',
            main: true,
          },
        ],
        priceElements,
      });
      expect(after.calendar.singleDates).toEqual(calendar.singleDates);
    });

    it('when an item an editor rejected is fed again, then it is left untouched and the run says why', async () => {
      serve('rejected', [entry('ev-1')]);
      await run('rejected');
      const imported = (await item('rejected', 'ev-1'))!;
      const editor = client(app.baseUrl, account.full);
      const current = (await editor.get(`/events/${imported.id}`)).body;
      expect((await editor.put(`/events/${imported.id}`, { ...current, wfstatus: 'rejected' })).status).toBe(200);
      const rejected = (await item('rejected', 'ev-1'))!;
      serve('rejected', [entry('ev-1', { trcItemDetails: [{ lang: 'nl', title: 'Anders' }] })]);
      const answer = await run('rejected');
      expect(answer.body).toMatchObject({
        converted: 1,
        imported: { created: 0, updated: 0, unchanged: 1 },
        skipped: 0,
      });
      expect(answer.body.errors).toEqual([
        { externalId: 'partner-rejected:ev-1', message: expect.stringContaining('the item is rejected') },
      ]);
      expect(await item('rejected', 'ev-1')).toEqual(rejected);
    });

    it('when the content did not change, then nothing is written: no new lastupdated, no webhook', async () => {
      const categories = { types: [{ catid: '1.1', isDefault: true }], categories: [{ value: 'Gratis parkeren' }] };
      serve('unchanged', [entry('ev-1', { trcItemCategories: categories }), entry('ev-2')]);
      await run('unchanged');
      const before = [(await item('unchanged', 'ev-1'))!, (await item('unchanged', 'ev-2'))!];
      const recorded = changes.length;
      const again = await run('unchanged');
      expect(again.body.imported).toEqual({ created: 0, updated: 0, unchanged: 2 });
      expect([await item('unchanged', 'ev-1'), await item('unchanged', 'ev-2')]).toEqual(before);
      expect(changes.length).toBe(recorded);

      // Approved: unchanged calendar and prices are no write either, whatever else the partner changed.
      const editor = client(app.baseUrl, account.full);
      const current = (await editor.get(`/events/${before[1]!.id}`)).body;
      await editor.put(`/events/${before[1]!.id}`, { ...current, wfstatus: 'approved' });
      const approved = (await item('unchanged', 'ev-2'))!;
      serve('unchanged', [entry('ev-2', { trcItemDetails: [{ lang: 'nl', title: 'Andere titel' }] })]);
      const third = await run('unchanged');
      expect(third.body.imported).toEqual({ created: 0, updated: 0, unchanged: 1 });
      expect(await item('unchanged', 'ev-2')).toEqual(approved);
    });

    it('when categories come as plain text, then Dutch (and other) labels map to ids and unmapped ones are reported [ONTO-009]', async () => {
      serve('categories', [
        entry('ev-1', {
          trcItemCategories: {
            categories: [
              { value: 'Gratis parkeren' }, // Dutch option label of choice p-1101
              { value: 'Wheelchair accessible' }, // English label of yesno p-1001
              { value: 'Straattheater' }, // no such label
              { catid: 'p-1102' }, // already an id
            ],
          },
        }),
      ]);
      const answer = await run('categories');
      expect(answer.body.imported.created).toBe(1);
      expect(answer.body.unmappedCategories).toEqual([
        { externalId: 'partner-categories:ev-1', value: 'Straattheater' },
      ]);
      const stored = (await item('categories', 'ev-1'))!;
      expect((stored.doc.trcItemCategories as { categories: unknown[] }).categories).toEqual([
        { catid: 'p-1101', valueid: 'o-2101' },
        { catid: 'p-1001', value: 'true' },
        { catid: 'p-1102' },
      ]);
      const read = (await client(app.baseUrl, account.full).get(`/events/${stored.id}`)).body;
      const parking = read.trcItemCategories.categories.find((c: { catid: string }) => c.catid === 'p-1101');
      expect(parking).toMatchObject({ datatype: 'choice', valueid: 'o-2101', value: 'Gratis parkeren' });
    });

    it('when an entry is invalid, then it is skipped with a clear error and the others import', async () => {
      serve('invalid', [
        entry('ok-1'),
        entry('bad-calendar', { calendar: 'every day' }),
        entry('bad-field', { colour: 'red' }),
        { trcItemDetails: [{ lang: 'nl', title: 'zonder id' }] },
        entry('foreign', { userorganisation: other.organisations[0] }),
        entry('ok-1'),
        entry('route-fields', { routeInfo: { routeType: 'walking' } }),
      ]);
      const answer = await run('invalid');
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        status: 'completed',
        fetched: 7,
        converted: 1,
        imported: { created: 1, updated: 0, unchanged: 0 },
        skipped: 6,
      });
      const errors = answer.body.errors;
      expect(errors).toHaveLength(6);
      expect(errors.find((e) => e.externalId === 'partner-invalid:bad-calendar')?.message).toMatch(
        /\/calendar must be object/,
      );
      expect(errors.find((e) => e.externalId === 'partner-invalid:bad-field')?.message).toMatch(
        /\/colour is not a field/,
      );
      expect(errors.find((e) => e.externalId === undefined)?.message).toMatch(
        /^entries\[3\] of https:\/\/127\.0\.0\.1:\d+\/invalid\.json has no id/,
      );
      expect(errors.find((e) => e.externalId === 'partner-invalid:foreign')?.message).toMatch(
        /userorganisation must be absent or/,
      );
      expect(errors.find((e) => e.externalId === 'partner-invalid:ok-1')?.message).toMatch(
        /repeats the id of entries\[0\]/,
      );
      expect(errors.find((e) => e.externalId === 'partner-invalid:route-fields')?.message).toMatch(/routeInfo/);
      expect(await item('invalid', 'bad-calendar')).toBeNull();
    });

    it('when an entry nests deeper than 100 levels, then it is skipped and reported like any invalid entry, and the others import [DEC-ERR-004] [DEC-FEED-005]', async () => {
      // As text: JSON.stringify itself would overflow on such a value. The entry's free-form
      // seoMetadata.schemaOrg (read-only, ignored on write) lets the nesting past the schema.
      const nested = (levels: number, open: string, close: string) =>
        `${open.repeat(levels)}"bottom"${close.repeat(levels)}`;
      const withSchemaOrg = (id: string, schemaOrg: string) =>
        JSON.stringify(entry(id, { seoMetadata: { schemaOrg: '@' } })).replace('"@"', schemaOrg);
      partner.serve('/deep.json', {
        body: `{"entries": [${[
          withSchemaOrg('deep', nested(20_000, '{"level":', '}')),
          withSchemaOrg('deep-array', `{"list":${nested(5000, '[', ']')}}`),
          withSchemaOrg('at-the-limit', nested(97, '{"level":', '}')),
          JSON.stringify(entry('plain')),
        ].join(',')}]}`,
      });
      const answer = await run('deep');
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        status: 'completed',
        fetched: 4,
        converted: 2,
        imported: { created: 2, updated: 0, unchanged: 0 },
        skipped: 2,
      });
      expect(answer.body.errors).toEqual([
        {
          externalId: 'partner-deep:deep',
          message: expect.stringMatching(/^\/seoMetadata\/schemaOrg(\/level)+ nests deeper than 100 levels$/),
        },
        {
          externalId: 'partner-deep:deep-array',
          message: expect.stringMatching(/^\/seoMetadata\/schemaOrg\/list(\/0)+ nests deeper than 100 levels$/),
        },
      ]);
      expect(await item('deep', 'deep')).toBeNull();
      expect(await item('deep', 'at-the-limit')).not.toBeNull();
      expect(await item('deep', 'plain')).not.toBeNull();
    });
  });

  describe('POST /feeds/{feedID}/fetchAndConvertOnce: scope of a run', () => {
    it('when size is given, then exactly that many entries are pulled and imported, the rest untouched and importable later [FEED-004] [LIMIT-004]', async () => {
      serve(
        'size',
        ['s1', 's2', 's3', 's4', 's5'].map((id) => entry(id)),
      );
      const first = await run('size', 'size=2');
      expect(first.body).toMatchObject({
        fetched: 2,
        converted: 2,
        imported: { created: 2, updated: 0, unchanged: 0 },
      });
      expect(await item('size', 's2')).not.toBeNull();
      for (const id of ['s3', 's4', 's5']) expect(await item('size', id)).toBeNull();
      const rest = await run('size', 'size=1000');
      expect(rest.body).toMatchObject({ fetched: 5, imported: { created: 3, updated: 0, unchanged: 2 } });
      expect(await item('size', 's5')).not.toBeNull();
    });

    it('when size is outside 1…1000, then 400 naming it [LIMIT-004]', async () => {
      for (const size of ['0', '1001', 'ten']) {
        const answer = await run('size', `size=${size}`);
        expect(answer.status).toBe(400);
        expect((answer.body as unknown as { message?: string }).message ?? '').toContain('size');
      }
    });

    it('when feedInfoId is given, then only that sub-feed is fetched and imported [FEED-005]', async () => {
      serve('subfeeds', [
        entry('m1', { feedInfoId: 'musea' }),
        entry('t1', { feedInfoId: 'theater' }),
        entry('m2', { feedInfoId: 'musea' }),
        entry('n1'),
      ]);
      partner.serve('/subfeeds-festivals.json', { body: { entries: [entry('f1'), entry('f2')] } });
      const musea = await run('subfeeds', 'feedInfoId=musea&size=1000');
      expect(musea.body).toMatchObject({ fetched: 2, imported: { created: 2 } });
      expect(await item('subfeeds', 'm2')).not.toBeNull();
      expect(await item('subfeeds', 't1')).toBeNull();
      expect(await item('subfeeds', 'n1')).toBeNull();

      const requested = partner.requests.length;
      const festivals = await run('subfeeds', 'feedInfoId=festivals&size=1');
      expect(festivals.body).toMatchObject({ fetched: 1, imported: { created: 1 } });
      expect(partner.requests.slice(requested)).toEqual(['/subfeeds-festivals.json']);
      expect(await item('subfeeds', 'f1')).not.toBeNull();
      expect(await item('subfeeds', 'f2')).toBeNull();

      const unknown = await run('subfeeds', 'feedInfoId=sport&size=1');
      expect(unknown.status).toBe(400);
      expect((unknown.body as unknown as { message?: string }).message ?? '').toContain(
        'not a sub-feed of subfeeds (known: musea, theater, festivals)',
      );
    });

    it('when externalID is given, then only that entry is fetched and imported and size is ignored [FEED-006] [DEC-FEED-004]', async () => {
      serve('external', [entry('x1'), entry('x2'), entry('x3')]);
      const byPartnerId = await run('external', 'externalID=x3&size=1');
      expect(byPartnerId.body).toMatchObject({ status: 'completed', fetched: 1, imported: { created: 1 } });
      expect(await item('external', 'x1')).toBeNull();
      expect(await item('external', 'x3')).not.toBeNull();

      const byExternalId = await run('external', 'externalID=partner-external:x2');
      expect(byExternalId.body).toMatchObject({ fetched: 1, imported: { created: 1 } });

      const missing = await run('external', 'externalID=x9');
      expect(missing.status).toBe(200);
      expect(missing.body).toMatchObject({ status: 'completed', fetched: 0, converted: 0 });
      expect(missing.body.errors).toEqual([
        { externalId: 'partner-external:x9', message: 'no entry with id x9 in the feed' },
      ]);
    });

    it('when neither size nor externalID is given, then 202 with Location, and the run can be followed to its end [FEED-007] [DEC-FEED-002]', async () => {
      serve('async', [entry('a1'), entry('a2'), entry('a3')]);
      const started = await run('async', '');
      expect(started.status).toBe(202);
      expect(responseProblems('fetchAndConvertFeedOnce', 202, started.body)).toEqual([]);
      expect(started.body).toMatchObject({ feedId: 'async', status: 'running', fetched: 0 });
      expect(started.body).not.toHaveProperty('finishedAt');
      expect(started.headers.get('location')).toBe(
        `${app.config.publicBaseUrl}/feeds/async/runs/${started.body.runId}`,
      );
      const done = await runUntilDone('async', started.body.runId);
      expect(done).toMatchObject({
        runId: started.body.runId,
        status: 'completed',
        fetched: 3,
        imported: { created: 3 },
      });
    });

    it('when a run of the feed is still running, then another is a 409 naming it [DEC-FEED-004]', async () => {
      partner.serve('/busy.json', { body: { entries: [entry('b1')] }, delayMs: 1500 });
      const first = await run('busy', '');
      expect(first.status).toBe(202);
      const second = await run('busy', 'size=1');
      expect(second.status).toBe(409);
      expect((second.body as unknown as { message: string }).message).toBe(
        `feed busy has a run in progress: ${first.body.runId}`,
      );
      expect((await runUntilDone('busy', first.body.runId)).status).toBe('completed');
      serve('busy', [entry('b1')]);
      expect((await run('busy', 'size=1')).status).toBe(200);
    });
  });

  describe('POST /feeds/{feedID}/fetchAndConvertOnce: a partner that fails', () => {
    it('when the partner sends invalid JSON, then the run fails with a clear error, not a 500', async () => {
      partner.serve('/broken.json', { body: '{"entries": [ {"id": "x",' });
      const answer = await run('broken', 'size=10');
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: 'failed', fetched: 0, converted: 0 });
      expect(answer.body.errors).toEqual([
        {
          message: expect.stringMatching(
            /^the document at https:\/\/127\.0\.0\.1:\d+\/broken\.json is not valid JSON: /,
          ),
        },
      ]);
    });

    it('when the document is not {entries: [...]}, then the run fails saying what was expected [DEC-FEED-001]', async () => {
      partner.serve('/shape.json', { body: [entry('x')] });
      const answer = await run('shape', 'size=10');
      expect(answer.body.status).toBe('failed');
      expect(answer.body.errors[0]!.message).toContain(
        'expected a JSON object {entries: [...]} (DEC-FEED-001), received an array',
      );
    });

    it('when the partner answers 502, then the run fails naming the status, and the background run reports it too', async () => {
      partner.serve('/down.json', { status: 502, body: 'Bad gateway' });
      const answer = await run('down', 'size=10');
      expect(answer.body.status).toBe('failed');
      expect(answer.body.errors).toEqual([
        { message: expect.stringMatching(/^fetching https:\/\/127\.0\.0\.1:\d+\/down\.json failed: status 502$/) },
      ]);
      const started = await run('down', '');
      expect((await runUntilDone('down', started.body.runId)).status).toBe('failed');
    });
  });

  describe('feed configuration', () => {
    it("when the feed's organisation is not known to the store, then the run fails before fetching, saying so", async () => {
      serve('orphan', [entry('o1')]);
      const requested = partner.requests.length;
      const answer = await run('orphan', 'size=1');
      expect(answer.body).toMatchObject({ status: 'failed', fetched: 0 });
      expect(answer.body.errors).toEqual([
        {
          message: "the feed's userorganisation no-such-organisation is not a known organisation; nothing was fetched",
        },
      ]);
      expect(partner.requests.length).toBe(requested);
    });

    it("when the feed's organisation belongs to another account than the feed, then the run fails before fetching", async () => {
      const answer = await run('misowned', 'size=1', other.admin);
      expect(answer.body).toMatchObject({ status: 'failed', fetched: 0 });
      expect(answer.body.errors[0]!.message).toBe(
        `the feed's userorganisation ${account.organisations[0]} belongs to account ${account.accountId}, not to the feed's account ${other.accountId}; nothing was fetched`,
      );
    });
  });

  describe('access', () => {
    it('when the caller has no admin role, then 403 [FEED-003] [DEC-AUTH-005]', async () => {
      const answer = await run('scope', 'size=1', externalAdmin);
      expect(answer.status).toBe(403);
      expect(
        (await client(app.baseUrl, externalAdmin).get(`/feeds/scope/runs/00000000-0000-4000-8000-000000000000`)).status,
      ).toBe(403);
    });

    it('when an admin of another account asks, then 404 as for an unknown feed; a super admin may run it [DEC-FEED-004] [DEC-ERR-002]', async () => {
      serve('scope', [entry('sc1')]);
      const foreign = await run('scope', 'size=1', other.admin);
      expect(foreign.status).toBe(404);
      expect((foreign.body as unknown as { message: string }).message).toBe('No feed with id scope');
      expect((await run('no-such-feed' as FeedId, 'size=1')).body).toMatchObject({
        status: 404,
        message: 'No feed with id no-such-feed',
      });
      const bySuperAdmin = await run('scope', 'size=1', superAdmin);
      expect(bySuperAdmin.status).toBe(200);
      const runUrl = `/feeds/scope/runs/${bySuperAdmin.body.runId}`;
      expect((await client(app.baseUrl, other.admin).get(runUrl)).status).toBe(404);
      expect((await admin().get(runUrl)).body).toMatchObject({ runId: bySuperAdmin.body.runId, status: 'completed' });
      expect((await admin().get('/feeds/scope/runs/00000000-0000-4000-8000-000000000000')).body.message).toBe(
        'No run 00000000-0000-4000-8000-000000000000 of feed scope',
      );
    });

    it('when no token is sent, then 401', async () => {
      expect((await client(app.baseUrl).post('/feeds/scope/fetchAndConvertOnce?size=1', undefined)).status).toBe(401);
    });
  });
});
