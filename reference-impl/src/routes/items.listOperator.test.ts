import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { client, eventBody, newTestAccount, type Client } from '../../test/support/items/itemsHarness.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';

// The operator's list parameters over HTTP (DEC-LIST-020…031): its names as aliases, its filters
// narrowing the answer, the names it sends and we do not implement accepted, every other name a 400.

describeEachEngine('GET /{collection} with the operator parameters', (ctx) => {
  let app: TestApp;
  let api: Client;
  const word = `w${randomUUID().slice(0, 6)}`;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // Pages kept in memory stay on: a page of one filter must never answer another filter's request.
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    const account = await newTestAccount(ctx.db);
    api = client(app.baseUrl, account.full);
    const bodies: Record<string, Record<string, unknown>> = {
      first: eventBody({
        trcItemDetails: [{ lang: 'nl', title: `Eerste ${word}`, shortdescription: 'Orgelconcert in de kerk' }],
        calendar: { singleDates: [{ date: '2027-03-01' }] },
      }),
      second: eventBody({
        trcItemDetails: [
          { lang: 'nl', title: `Tweede ${word}` },
          { lang: 'en', title: `Second ${word}`, longdescription: 'An organ recital' },
        ],
        calendar: { singleDates: [{ date: '2027-09-01T20:00:00' }] },
      }),
    };
    for (const [name, body] of Object.entries(bodies)) {
      const created = await api.post('/events', { ...body, wfstatus: 'approved' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      ids[name] = created.body.id as string;
    }
  });
  afterAll(() => app?.close());

  const listed = async (query: string): Promise<string[]> => {
    const answer = await api.get(`/events?${query}`);
    expect(answer.status, `${query}: ${JSON.stringify(answer.body)}`).toBe(200);
    return (answer.body as Array<{ id: string }>).map((item) => item.id);
  };
  const named = (list: string[]) => list.map((id) => Object.keys(ids).find((name) => ids[name] === id) ?? 'other');

  it('when sort and sortorder are sent, then the list is ordered as by sortField and sortOrder [DEC-LIST-020]', async () => {
    expect(await listed('sort=modified&sortorder=asc')).toEqual(await listed('sortField=lastupdated&sortOrder=ASC'));
    expect(await listed('sort=created')).toEqual(await listed('sortField=creationdate&sortOrder=DESC'));
    expect(await listed('sort=title&sortorder=ASC')).toEqual(await listed('sortField=title&sortOrder=asc'));
    // The interface's name wins.
    expect(await listed('sort=created&sortField=title&sortorder=desc&sortOrder=asc')).toEqual(
      await listed('sortField=title&sortOrder=ASC'),
    );
    expect((await api.get('/events?sort=newest')).status).toBe(400);
  });

  it('when search names words, then only items with them in a title or description come back, and the next search is not answered from the last one [DEC-LIST-021]', async () => {
    expect(named(await listed(`search=${word}&sortField=title&sortOrder=ASC`))).toEqual(['first', 'second']);
    expect(named(await listed(`search=${word}%20orgel`))).toEqual(['first']);
    expect(named(await listed(`search=organ%20${word.slice(0, 4)}`))).toEqual(['second']);
    expect(named(await listed(`search=${word}&lang=en`))).toEqual(['second']);
  });

  it('when a search holds no word, then 400 naming search [DEC-LIST-021]', async () => {
    const answer = await api.get('/events?search=%20%26!');
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('search');
  });

  it('when an event date range is sent, then only events with a day in it come back [DEC-LIST-027]', async () => {
    const query = `search=${word}&eventDateRangeStart=2027-08-01&eventDateRangeEnd=2027-09-01`;
    expect(named(await listed(query))).toEqual(['second']);
    expect(named(await listed(`search=${word}&eventDateRangeEnd=2027-03-01`))).toEqual(['first']);
    expect((await api.get('/locations?eventDateRangeStart=2027-01-01')).status).toBe(400);
    expect((await api.get('/events?eventDateRangeStart=tomorrow')).status).toBe(400);
  });

  it('when a deleted event is asked for with deleted=true, then it is listed; without, it is not [DEC-LIST-030]', async () => {
    const gone = await api.post('/events', eventBody({ trcItemDetails: [{ lang: 'nl', title: `Weg ${word}` }] }));
    expect((await api.delete(`/events/${gone.body.id as string}`)).status).toBeLessThan(300);
    expect(await listed(`search=weg%20${word}`)).toEqual([]);
    expect(await listed(`search=weg%20${word}&deleted=true`)).toEqual([gone.body.id]);
  });

  it("when the CLI's unimplemented parameters are sent, then they are ignored; a name nobody uses stays a 400 [DEC-LIST-031] [DEC-LIST-008]", async () => {
    const all = await listed(`search=${word}`);
    expect(
      await listed(`search=${word}&geo=52.37,4.89&geodistance=5km&locationId=x&format=excel&export_propertyids=a`),
    ).toEqual(all);
    const typo = await api.get(`/events?serach=${word}`);
    expect(typo.status).toBe(400);
    expect(JSON.stringify(typo.body)).toContain('serach');
  });
});
