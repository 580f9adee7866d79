import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  eventBody,
  newTestAccount,
  superAdminToken,
  type Client,
  type TestAccount,
} from '../../test/support/items/itemsHarness.ts';
import { insertItem } from '../storage/items/insertItem.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { createTestToken } from '../../test/support/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';

const ENFORCED_FROM = '2026-10-31T23:00:00.000Z';

describeEachEngine('GET /{collection}', (ctx) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false', SIZE_CAP_ENFORCED_FROM: ENFORCED_FROM } });
  });
  afterAll(() => app.close());

  /** A fresh account with `n` approved events; returned in creation order. */
  async function accountWithEvents(
    n: number,
    body: (i: number) => Record<string, unknown> = () => ({}),
  ): Promise<{ account: TestAccount; api: Client; items: any[] }> {
    const account = await newTestAccount(ctx.db);
    const api = client(app.baseUrl, account.full);
    const items = [];
    for (let i = 0; i < n; i++)
      items.push((await api.post('/events', eventBody({ wfstatus: 'approved', ...body(i) }))).body);
    return { account, api, items };
  }

  describe('paging', () => {
    it('when pages are fetched until one holds fewer than size, then together they hold every item once [PAGE-001] [PAGE-002] [DEC-LIST-002] [LIST-001]', async () => {
      const { api, items } = await accountWithEvents(7);
      const pages = [];
      for (let page = 0; ; page++) {
        const answer = await api.get(`/events?size=3&page=${page}`);
        expect(answer.status).toBe(200);
        expect(Array.isArray(answer.body)).toBe(true);
        pages.push(answer.body);
        if (answer.body.length < 3) break;
      }
      expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
      const ids = pages.flat().map((i) => i.id);
      expect(new Set(ids).size).toBe(7);
      expect(new Set(ids)).toEqual(new Set(items.map((i) => i.id)));
    });

    it('when size and page are absent, then 20 items of page 0 come back [DEC-LIST-001] [DEC-LIST-002]', async () => {
      const { api } = await accountWithEvents(21);
      expect((await api.get('/events')).body).toHaveLength(20);
      expect((await api.get('/events?page=1')).body).toHaveLength(1);
      expect((await api.get('/events?page=99999999999')).body).toEqual([]);
    });

    it('when the keyset is followed, then each next page starts with the boundary item and the run ends with every item [PAGE-003] [PAGE-004] [PAGE-005] [FILTER-001] [SYNC-002]', async () => {
      const { api, items } = await accountWithEvents(8);
      const seen: any[] = [];
      let mark: string | undefined,
        requests = 0,
        previousLast: string | undefined;
      for (;;) {
        const query = `sortField=lastupdated&sortOrder=ASC&size=3${mark === undefined ? '' : `&lastupdated=${encodeURIComponent(mark)}`}`;
        const page = (await api.get(`/events?${query}`)).body as any[];
        requests++;
        if (previousLast !== undefined) expect(page[0].id).toBe(previousLast);
        seen.push(...page);
        if (page.length < 3) break;
        mark = page.at(-1).lastupdated;
        previousLast = page.at(-1).id;
        expect(requests).toBeLessThan(20);
      }
      expect(new Set(seen.map((i) => i.id))).toEqual(new Set(items.map((i) => i.id)));
      expect(seen.length - items.length).toBe(requests - 1);
    });
  });

  describe('sorting', () => {
    it('when no sort is given, then lastupdated descending [SORT-002] [SORT-003]', async () => {
      const { api, items } = await accountWithEvents(4);
      expect((await api.get('/events')).body.map((i: any) => i.id)).toEqual(items.map((i) => i.id).reverse());
    });

    it('when sorting by title with equal titles, then titles are ordered and ties broken by id ascending, either way [SORT-001] [SORT-003] [DEC-LIST-003] [DEC-LIST-004]', async () => {
      const titles = ['Gelijk', 'Anders', 'Gelijk', 'Zomer', 'Gelijk', 'Anders'];
      const { api, items } = await accountWithEvents(titles.length, (i) => ({
        trcItemDetails: [{ lang: 'nl', title: titles[i] }],
      }));
      const byId = (a: any, b: any) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
      const title = (item: any) => item.trcItemDetails[0].title as string;
      for (const order of ['ASC', 'desc']) {
        const listed = (await api.get(`/events?sortField=title&sortOrder=${order}`)).body;
        const direction = order.toUpperCase() === 'ASC' ? 1 : -1;
        const expected = [...items].sort((a, b) =>
          title(a) < title(b) ? -direction : title(a) > title(b) ? direction : byId(a, b),
        );
        expect(listed.map((i: any) => i.id)).toEqual(expected.map((i) => i.id));
      }
    });

    it('when sorting by the title of the primary language, then the primary language decides [DEC-LIST-003]', async () => {
      const { api, items } = await accountWithEvents(2, (i) => ({
        translations: { primaryLanguage: 'en', availableLanguages: ['nl', 'en'] },
        trcItemDetails: [
          { lang: 'nl', title: i === 0 ? 'A' : 'B' },
          { lang: 'en', title: i === 0 ? 'Z' : 'Y' },
        ],
      }));
      expect((await api.get('/events?sortField=title&sortOrder=ASC')).body.map((i: any) => i.id)).toEqual([
        items[1].id,
        items[0].id,
      ]);
    });

    it('when sorting by creationdate ascending, then creation order [SORT-001]', async () => {
      const { api, items } = await accountWithEvents(3);
      await api.put(`/events/${items[0].id}`, eventBody({ wfstatus: 'approved' }));
      expect((await api.get('/events?sortField=creationdate&sortOrder=ASC')).body.map((i: any) => i.id)).toEqual(
        items.map((i) => i.id),
      );
      expect((await api.get('/events?sortField=lastupdated&sortOrder=ASC')).body.map((i: any) => i.id)).toEqual([
        items[1].id,
        items[2].id,
        items[0].id,
      ]);
    });
  });

  describe('filters', () => {
    it('when lastupdated is given in UTC, with an offset, without one or as a date, then it is an inclusive bound read in Europe/Amsterdam when local [FILTER-001] [DEC-LIST-005]', async () => {
      const { api, items } = await accountWithEvents(3);
      const at = (i: number) => Date.parse(items[i].lastupdated);
      const ids = async (value: string) =>
        (await api.get(`/events?sortOrder=ASC&lastupdated=${encodeURIComponent(value)}`)).body.map((i: any) => i.id);
      expect(await ids(items[1].lastupdated)).toEqual([items[1].id, items[2].id]);
      expect(await ids(new Date(at(1) + 1).toISOString())).toEqual([items[2].id]);
      expect(await ids(new Date(at(1) - 1).toISOString())).toEqual([items[1].id, items[2].id]);
      // The same instant with a +05:00 offset, and as a wall time in Amsterdam.
      const shifted = new Date(at(1) + 5 * 3600_000).toISOString().replace('Z', '+05:00');
      expect(await ids(shifted)).toEqual([items[1].id, items[2].id]);
      const amsterdam = new Intl.DateTimeFormat('sv-SE', {
        timeZone: 'Europe/Amsterdam',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        fractionalSecondDigits: 3,
      })
        .format(new Date(at(1)))
        .replace(' ', 'T')
        .replace(',', '.');
      expect(await ids(amsterdam)).toEqual([items[1].id, items[2].id]);
      expect(await ids('2000-01-01')).toEqual(items.map((i) => i.id));
      expect(await ids('2999-01-01')).toEqual([]);
    });

    it('when lastupdated cannot be parsed, then 400 naming it [DEC-LIST-005]', async () => {
      const { api } = await accountWithEvents(0);
      for (const value of ['yesterday', '2026-13-01', '2026-02-30T10:00:00Z', '1700000000']) {
        const answer = await api.get(`/events?lastupdated=${encodeURIComponent(value)}`);
        expect(answer.status).toBe(400);
        expect(answer.body.message).toContain('lastupdated');
      }
    });

    it('when wfstatus lists statuses, then only those come back; without it every status but deleted [FILTER-002] [DEC-LIST-006]', async () => {
      const account = await newTestAccount(ctx.db);
      const api = client(app.baseUrl, account.full);
      const byStatus: Record<string, string> = {};
      for (const wfstatus of ['readyforvalidation', 'approved', 'rejected', 'archived', 'deleted']) {
        byStatus[wfstatus] = (await api.post('/events', eventBody({ wfstatus }))).body.id;
      }
      const statuses = async (query: string) =>
        (await api.get(`/events?sortField=wfstatus&sortOrder=ASC${query}`)).body.map((i: any) => i.wfstatus);
      expect(await statuses('')).toEqual(['approved', 'archived', 'readyforvalidation', 'rejected']);
      expect(await statuses('&wfstatus=approved,archived,deleted')).toEqual(['approved', 'archived', 'deleted']);
      expect(await statuses('&wfstatus=deleted')).toEqual(['deleted']);
      expect(await statuses('&published=true')).toEqual(['approved']);
      expect(await statuses('&published=false')).toEqual(['archived', 'readyforvalidation', 'rejected']);
      expect(await statuses('&published=false&wfstatus=approved,deleted')).toEqual(['deleted']);
    });

    it('when published=true is asked, then only approved items [FILTER-003] [DEC-LIST-007] [WF-001]', async () => {
      const account = await newTestAccount(ctx.db);
      const api = client(app.baseUrl, account.full);
      const approved = (await api.post('/events', eventBody({ wfstatus: 'approved' }))).body;
      await api.post('/events', eventBody());
      expect((await api.get('/events?published=true')).body.map((i: any) => i.id)).toEqual([approved.id]);
    });

    it('when trcid is given, then only that item [FILTER-004]', async () => {
      const { api, items } = await accountWithEvents(3);
      expect((await api.get(`/events?trcid=${items[1].trcid}`)).body.map((i: any) => i.id)).toEqual([items[1].id]);
      expect((await api.get('/events?trcid=trc-none')).body).toEqual([]);
    });

    it('when excludePatternDates is true on events, then only stored single dates; otherwise pattern days too [FILTER-005] [DEC-ITEM-010] [ITEM-020]', async () => {
      const calendar = {
        singleDates: [{ date: '2027-08-14', when: [{ timestart: '20:15', timeend: '21:30' }] }],
        patternDates: [
          {
            startdate: '2027-08-16T00:00:00',
            enddate: '2027-08-22T00:00:00',
            recurrencyType: 'weekly',
            opens: [
              { day: 4, whens: [{ timestart: '20:15', timeend: '21:30' }] },
              { day: 6, whens: [{ timestart: '20:15', timeend: '21:30' }] },
            ],
          },
        ],
      };
      const { api, items } = await accountWithEvents(1, () => ({ calendar }));
      const dates = (item: any) => item.calendar.singleDates.map((d: any) => d.date);
      const expanded = (await api.get(`/events?trcid=${items[0].trcid}`)).body[0];
      expect(expanded.calendar.calendarType).toBe('SINGLEDATES');
      expect(dates(expanded)).toEqual(['2027-08-14T00:00:00', '2027-08-18T00:00:00', '2027-08-20T00:00:00']);
      expect(dates((await api.get(`/events/${items[0].id}`)).body)).toEqual(dates(expanded));
      const stored = (await api.get(`/events?trcid=${items[0].trcid}&excludePatternDates=true`)).body[0];
      expect(dates(stored)).toEqual(['2027-08-14T00:00:00']);
      expect(stored.calendar.patternDates).toEqual(calendar.patternDates);
      expect(dates((await api.get(`/events?trcid=${items[0].trcid}&excludePatternDates=false`)).body[0])).toEqual(
        dates(expanded),
      );
    });

    it('when a list gets an unknown, malformed or out-of-range parameter, then 400 naming it, never 500 [DEC-LIST-008] [DEC-LIST-001] [DEC-LIST-003] [DEC-LIST-006]', async () => {
      const { api } = await accountWithEvents(0);
      const cases: Array<[string, string]> = [
        ['/events?sortfield=title', 'sortfield'],
        ['/events?sortField=trcItemDetails', 'sortField'],
        ['/events?sortOrder=UP', 'sortOrder'],
        ['/events?wfstatus=approved,published', 'wfstatus'],
        ['/events?published=yes', 'published'],
        ['/events?size=0', 'size'],
        ['/events?size=ten', 'size'],
        ['/events?page=-1', 'page'],
        ['/events?page=1.5', 'page'],
        ['/events?size=2&size=3', 'size'],
        ['/locations?excludePatternDates=true', 'excludePatternDates'],
      ];
      for (const [path, name] of cases) {
        const answer = await api.get(path);
        expect(answer.status, path).toBe(400);
        expect(answer.body.message, path).toContain(name);
        expect(answer.body.error).toBe('Bad Request');
      }
    });
  });

  describe('scope', () => {
    it('when a live token lists, reads or filters for archived and deleted items, then it never gets them [AUTH-005] [SCOPE-001] [WF-005] [SYNC-005]', async () => {
      const account = await newTestAccount(ctx.db);
      const full = client(app.baseUrl, account.full);
      const live = client(app.baseUrl, account.live);
      const ids: Record<string, string> = {};
      for (const wfstatus of ['readyforvalidation', 'approved', 'rejected', 'archived', 'deleted']) {
        ids[wfstatus] = (await full.post('/events', eventBody({ wfstatus }))).body.id;
      }
      expect((await live.get('/events')).body.map((i: any) => i.id)).toEqual([ids.approved]);
      expect((await live.get('/events?wfstatus=approved,archived,deleted')).body.map((i: any) => i.id)).toEqual([
        ids.approved,
      ]);
      expect((await live.get('/events?wfstatus=archived,deleted')).body).toEqual([]);
      expect((await live.get('/events?published=false')).body).toEqual([]);
      for (const wfstatus of ['readyforvalidation', 'rejected', 'archived', 'deleted']) {
        expect((await live.get(`/events/${ids[wfstatus]}`)).status, wfstatus).toBe(404);
      }
      expect((await live.get(`/events/${ids.approved}`)).status).toBe(200);
      // The full token sees archived by id, but deleted never (DEC-ITEM-004).
      expect((await full.get(`/events/${ids.archived}`)).status).toBe(200);
      expect((await full.get(`/events/${ids.deleted}`)).status).toBe(404);
    });

    it("when a token is limited to some organisations, then it sees only their items; other accounts' items never [AUTH-004] [DEC-AUTH-004]", async () => {
      const account = await newTestAccount(ctx.db, { organisations: 2 });
      const other = await newTestAccount(ctx.db);
      const full = client(app.baseUrl, account.full);
      const first = (
        await full.post('/events', eventBody({ wfstatus: 'approved', userorganisation: account.organisations[0] }))
      ).body;
      const second = (
        await full.post('/events', eventBody({ wfstatus: 'approved', userorganisation: account.organisations[1] }))
      ).body;
      const foreign = (await client(app.baseUrl, other.full).post('/events', eventBody({ wfstatus: 'approved' }))).body;
      const narrow = client(
        app.baseUrl,
        (await createTestToken(ctx.db, { accountId: account.accountId, organisations: [account.organisations[1]!] }))
          .token,
      );
      expect((await narrow.get('/events')).body.map((i: any) => i.id)).toEqual([second.id]);
      expect((await narrow.get(`/events/${first.id}`)).status).toBe(404);
      expect((await full.get('/events?sortOrder=ASC')).body.map((i: any) => i.id)).toEqual([first.id, second.id]);
      expect((await full.get(`/events?trcid=${foreign.trcid}`)).body).toEqual([]);
      expect((await full.get(`/events/${foreign.id}`)).status).toBe(404);
      const admin = client(app.baseUrl, await superAdminToken(ctx.db, account.accountId));
      expect((await admin.get(`/events?trcid=${foreign.trcid}`)).body.map((i: any) => i.id)).toEqual([foreign.id]);
      const deleted = (await full.post('/events', eventBody({ wfstatus: 'deleted' }))).body;
      expect((await admin.get(`/events?trcid=${deleted.trcid}&wfstatus=deleted`)).body.map((i: any) => i.id)).toEqual([
        deleted.id,
      ]);
    });

    it('when an item is read through another collection, then 404; each list holds its own entity type only [ITEM-028] [DETAIL-001]', async () => {
      const account = await newTestAccount(ctx.db);
      const api = client(app.baseUrl, account.full);
      const created: Record<string, any> = {};
      for (const collection of ['events', 'locations', 'venues', 'eventgroups', 'routes']) {
        created[collection] = (await api.post(`/${collection}`, { wfstatus: 'approved' })).body;
      }
      const entitytypes = {
        events: 'EVENEMENT',
        locations: 'LOCATIE',
        venues: 'VENUE',
        eventgroups: 'EVENTGROUP',
        routes: 'ROUTE',
      } as const;
      for (const [collection, entitytype] of Object.entries(entitytypes)) {
        const listed = (await api.get(`/${collection}`)).body;
        expect(listed.map((i: any) => i.id)).toEqual([created[collection].id]);
        expect(listed[0].entitytype).toBe(entitytype);
        expect((await api.get(`/${collection}/${created[collection].id}`)).status).toBe(200);
        const elsewhere = collection === 'events' ? 'locations' : 'events';
        expect((await api.get(`/${elsewhere}/${created[collection].id}`)).status).toBe(404);
      }
    });

    it('when a detail read carries size or other list parameters, even past the cap, then they are ignored and the item answers [DETAIL-002]', async () => {
      const account = await newTestAccount(ctx.db);
      const api = client(app.baseUrl, account.full);
      const item = (await api.post('/events', eventBody())).body;
      const plain = await api.get(`/events/${item.id}`);
      try {
        app.clock.set(Date.parse(ENFORCED_FROM));
        for (const query of ['size=5000', 'size=abc', 'page=3&sortField=title&sortOrder=desc&wfstatus=deleted']) {
          const read = await api.get(`/events/${item.id}?${query}`);
          expect(read.status, `${query}: ${JSON.stringify(read.body)}`).toBe(200);
          expect(read.body).toEqual(plain.body);
        }
      } finally {
        app.clock.set(undefined);
      }
      // Parameters no list takes stay refused.
      expect((await api.get(`/events/${item.id}?colour=red`)).body.message).toContain('unknown query parameter colour');
    });

    it('when a detail id is not a UUID, then 400 [DEC-MISC-002]', async () => {
      const account = await newTestAccount(ctx.db);
      expect((await client(app.baseUrl, account.full).get('/events/123')).status).toBe(400);
    });
  });

  describe('size cap', () => {
    it('when size is above 2000 before the enforcement moment, then 200 with only the first 2000 items and no flag; from the moment, then 400 with the exact body [LIMIT-001] [LIMIT-002] [LIMIT-003] [ERR-001] [DETAIL-002]', async () => {
      const account = await newTestAccount(ctx.db);
      const userorganisation = account.organisations[0]!;
      await ctx.db.transaction(async (tx) => {
        for (let i = 0; i < 2001; i++) {
          await insertItem(tx, {
            trcid: `trc-cap-${randomUUID()}`,
            entitytype: 'EVENEMENT',
            wfstatus: 'approved',
            userorganisation,
            externalId: null,
            title: null,
            slug: null,
            doc: {},
          });
        }
      });
      const api = client(app.baseUrl, account.live);
      try {
        app.clock.set(Date.parse(ENFORCED_FROM) - 1);
        const before = await api.get('/events?size=2500');
        expect(before.status).toBe(200);
        expect(before.body).toHaveLength(2000);
        expect([...before.headers.keys()].filter((h) => /trunc|total|count/i.test(h))).toEqual([]);
        expect((await api.get('/events?size=2000')).body).toHaveLength(2000);

        app.clock.set(Date.parse(ENFORCED_FROM));
        const after = await api.get('/events?size=2001');
        expect(after.status).toBe(400);
        expect(after.body).toEqual({
          status: 400,
          error: 'Bad Request',
          message: 'size must not exceed 2000 (requested: 2001)',
        });
        expect((await api.get('/events?size=2000')).status).toBe(200);
        expect((await api.get('/events?size=2000&page=1')).body).toHaveLength(1);
      } finally {
        app.clock.set(undefined);
      }
    });
  });
});

describeEachEngine('rate limits', (ctx) => {
  let app: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    app = await startTestApp(ctx.db);
    account = await newTestAccount(ctx.db);
  });
  afterAll(() => app.close());

  /** Every test starts from rest at its own fixed instant, so the bucket does not refill meanwhile. */
  let instant = Date.parse('2030-01-01T00:00:00Z');
  const atRest = () => {
    instant += 3_600_000;
    app.clock.set(instant);
  };

  it('when 41 list requests arrive at once from one IP, then all pass and the 42nd is a 429 with Retry-After and the rate headers [RATE-001] [RATE-002] [RATE-003] [RATE-004] [RATE-006] [ERR-005] [DEC-RATE-001] [DEC-RATE-002] [DEC-RATE-003]', async () => {
    atRest();
    const api = client(app.baseUrl, account.live);
    const answers = await Promise.all(Array.from({ length: 41 }, () => api.get('/events')));
    expect(answers.map((a) => a.status)).toEqual(Array(41).fill(200));
    for (const answer of answers) {
      expect(answer.headers.get('x-ratelimit-limit')).toBe('20');
      expect(answer.headers.get('x-ratelimit-policy')).toBe('20;w=1;burst=40');
      expect(answer.headers.get('x-ratelimit-remaining')).toBeNull();
    }
    const refused = await api.get('/locations');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('20');
    expect(refused.body).toEqual({
      status: 429,
      error: 'Too Many Requests',
      message: 'rate limit exceeded: 20 requests per second with a burst of 40; retry after 1 s',
    });
    // One emission interval later exactly one more passes.
    app.clock.set(instant + 50);
    expect((await api.get('/routes')).status).toBe(200);
    expect((await api.get('/venues')).status).toBe(429);
  });

  it('when every limited endpoint is called, then they share one per-IP bucket and /dictionary counts too [RATE-001] [DICT-006]', async () => {
    atRest();
    const api = client(app.baseUrl, account.live);
    const paths = ['/events', '/locations', '/routes', '/eventgroups', '/venues', '/dictionary'];
    const statuses = [];
    for (let i = 0; i < 42; i++) statuses.push((await api.get(paths[i % paths.length]!)).status);
    expect(statuses.slice(0, 41)).toEqual(Array(41).fill(200));
    expect(statuses[41]).toBe(429);
    const dictionary = await api.get('/dictionary');
    expect(dictionary.status).toBe(429);
    expect(dictionary.headers.get('x-ratelimit-policy')).toBe('20;w=1;burst=40');
  });

  it('when the limit is spent, then detail reads, ontologies and health still answer and carry no rate headers [RATE-005] [DETAIL-002] [HEALTH-001]', async () => {
    atRest();
    const api = client(app.baseUrl, account.full);
    const item = (await api.post('/events', eventBody())).body;
    await Promise.all(Array.from({ length: 45 }, () => api.get('/events')));
    expect((await api.get('/events')).status).toBe(429);
    for (let i = 0; i < 50; i++) {
      const detail = await api.get(`/events/${item.id}`);
      expect(detail.status).toBe(200);
      expect(detail.headers.get('x-ratelimit-limit')).toBeNull();
    }
    expect((await api.get('/dictionary/propertiesOntology')).status).toBe(200);
    expect((await api.get('/actuator/health')).status).toBe(200);
    expect((await api.post('/events', eventBody())).status).toBe(201);
  });

  it('when a list is called without a valid token, then the 401 carries the rate headers and counts against the IP [RATE-006] [AUTH-002] [DEC-ERR-002]', async () => {
    atRest();
    const anonymous = client(app.baseUrl);
    const answer = await anonymous.get('/events');
    expect(answer.status).toBe(401);
    expect(answer.headers.get('x-ratelimit-limit')).toBe('20');
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
    await Promise.all(Array.from({ length: 40 }, () => anonymous.get('/events')));
    expect((await client(app.baseUrl, account.live).get('/events')).status).toBe(429);
  });
});
