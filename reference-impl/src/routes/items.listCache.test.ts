import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { client, eventBody, newTestAccount, superAdminToken } from '../../test/support/items/itemsHarness.ts';
import { putPropertiesOntology } from '../storage/dictionary/putPropertiesOntology.ts';
import { insertItem } from '../storage/items/insertItem.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { createTestAccount } from '../../test/support/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';

// List answers are sent again from memory while the store's content version is unchanged
// (items/listPageCache.ts, migration 010). What a client must never notice: any change to the
// items, ontologies or organisations made anywhere, by the API or straight in the store, shows on
// the very next list request.

/** A property ontology labelling p-1001 with `label`. */
function ontology(label: string) {
  return {
    propertyCategories: [
      {
        id: 'pc-9001',
        name: 'Eigen',
        datatype: 'yes',
        propertytranslations: [{ lang: 'nl', text: 'Eigen' }],
        properties: [
          { id: 'p-1001', name: label, datatype: 'yesno', propertytranslations: [{ lang: 'nl', text: label }] },
        ],
      },
    ],
  };
}

const titles = (page: any[]) => page.map((item) => item.trcItemDetails[0].title as string);
const labels = (page: any[]) =>
  page.map((item) => item.trcItemCategories.categories[0].categoryTranslations[0].label as string);

describeEachEngine('list answers kept in memory', (ctx) => {
  let app: TestApp;
  /** A second instance on the same store, with its own kept pages. */
  let other: TestApp;
  let uncached: TestApp;
  beforeAll(async () => {
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    other = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    uncached = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false', LIST_CACHE_BYTES: '0' } });
  });
  afterAll(async () => {
    await app.close();
    await other.close();
    await uncached.close();
  });

  /** Changes an item's stored rendering in place, as no write does: the content version stays. */
  const retitleStoredRendering = async (id: string, from: string, to: string) => {
    const { affectedRows } = await ctx.db.query(
      'UPDATE items SET rendered_body = replace(rendered_body, $2, $3) WHERE id = $1',
      [id, from, to],
    );
    expect(affectedRows).toBe(1);
  };

  it('when a page is asked for again and nothing changed, then it is sent from memory; Cache-Control: no-cache reads the store, and without a cache every request does [LIST-001]', async () => {
    const account = await newTestAccount(ctx.db);
    const api = client(app.baseUrl, account.full);
    const created = (
      await api.post(
        '/events',
        eventBody({ wfstatus: 'approved', trcItemDetails: [{ lang: 'nl', title: 'Kept concert' }] }),
      )
    ).body;
    expect(titles((await api.get('/events')).body)).toEqual(['Kept concert']);

    await retitleStoredRendering(created.id, 'Kept concert', 'Changed unseen');
    expect(titles((await api.get('/events')).body), 'the kept page').toEqual(['Kept concert']);
    expect(
      titles((await api.call('GET', '/events', undefined, { 'cache-control': 'no-cache' })).body),
      'no-cache',
    ).toEqual(['Changed unseen']);
    expect(titles((await api.get('/events')).body), 'a fresh answer is not kept').toEqual(['Kept concert']);
    expect(titles((await client(uncached.baseUrl, account.full).get('/events')).body), 'LIST_CACHE_BYTES=0').toEqual([
      'Changed unseen',
    ]);

    await retitleStoredRendering(created.id, 'Changed unseen', 'Changed again');
    expect(
      titles((await api.call('GET', '/events', undefined, { 'cache-control': 'max-age=60, no-store' })).body),
      'no-store',
    ).toEqual(['Changed again']);
    await retitleStoredRendering(created.id, 'Changed again', 'Changed once more');
    expect(
      titles((await api.call('GET', '/events', undefined, { pragma: 'no-cache' })).body),
      'Pragma: no-cache',
    ).toEqual(['Changed once more']);
  });

  it('when items are written through one instance, then a page the other instance has just sent shows the change on its next request [LIST-001]', async () => {
    const account = await newTestAccount(ctx.db);
    const here = client(app.baseUrl, account.full);
    const there = client(other.baseUrl, account.full);
    const created = (
      await here.post('/events', eventBody({ wfstatus: 'approved', trcItemDetails: [{ lang: 'nl', title: 'Hier' }] }))
    ).body;
    expect(titles((await there.get('/events')).body)).toEqual(['Hier']);
    expect(titles((await here.get('/events')).body)).toEqual(['Hier']);
    expect(
      (
        await there.put(
          `/events/${created.id}`,
          eventBody({ wfstatus: 'approved', trcItemDetails: [{ lang: 'nl', title: 'Daar' }] }),
        )
      ).status,
    ).toBe(200);
    expect(titles((await here.get('/events')).body)).toEqual(['Daar']);
    expect((await here.delete(`/events/${created.id}`)).status).toBe(204);
    expect(titles((await there.get('/events')).body)).toEqual([]);
  });

  it('when items are written through the API or straight into the store, then the next list shows them [LIST-001] [ITEM-005]', async () => {
    const account = await newTestAccount(ctx.db);
    const api = client(app.baseUrl, account.full);
    const first = (
      await api.post('/events', eventBody({ wfstatus: 'approved', trcItemDetails: [{ lang: 'nl', title: 'First' }] }))
    ).body;
    expect(titles((await api.get('/events')).body)).toEqual(['First']);

    await insertItem(ctx.db, {
      trcid: `trc-${randomUUID()}`,
      entitytype: 'EVENEMENT',
      wfstatus: 'approved',
      userorganisation: account.organisations[0]!,
      externalId: null,
      title: 'Stored',
      slug: null,
      doc: { trcItemDetails: [{ lang: 'nl', title: 'Stored' }] },
    });
    expect(titles((await api.get('/events')).body)).toEqual(['Stored', 'First']);

    expect(
      (
        await api.put(
          `/events/${first.id}`,
          eventBody({ wfstatus: 'approved', trcItemDetails: [{ lang: 'nl', title: 'First, renamed' }] }),
        )
      ).status,
    ).toBe(200);
    expect(titles((await api.get('/events')).body)).toEqual(['First, renamed', 'Stored']);
    expect((await api.delete(`/events/${first.id}`)).status).toBe(204);
    expect(titles((await api.get('/events')).body)).toEqual(['Stored']);
  });

  it('when callers of different scopes ask the same query, then each gets the page of their own scope [SCOPE-001]', async () => {
    const one = await newTestAccount(ctx.db);
    const other = await newTestAccount(ctx.db);
    await client(app.baseUrl, one.full).post(
      '/events',
      eventBody({ wfstatus: 'approved', trcItemDetails: [{ lang: 'nl', title: 'Of one' }] }),
    );
    await client(app.baseUrl, other.full).post(
      '/events',
      eventBody({ wfstatus: 'approved', trcItemDetails: [{ lang: 'nl', title: 'Of other' }] }),
    );
    await client(app.baseUrl, one.full).post(
      '/events',
      eventBody({ wfstatus: 'archived', trcItemDetails: [{ lang: 'nl', title: 'Archived of one' }] }),
    );
    expect(titles((await client(app.baseUrl, one.full).get('/events?wfstatus=approved,archived')).body)).toEqual([
      'Archived of one',
      'Of one',
    ]);
    expect(titles((await client(app.baseUrl, one.live).get('/events?wfstatus=approved,archived')).body)).toEqual([
      'Of one',
    ]);
    expect(titles((await client(app.baseUrl, other.full).get('/events?wfstatus=approved,archived')).body)).toEqual([
      'Of other',
    ]);
  });

  it("when the owner's ontology is renamed in the store, or the organisation moves to an account with other labels, then the next list shows the labels in force [ONTO-006] [ONTO-008]", async () => {
    const account = await newTestAccount(ctx.db);
    const item = (
      await client(app.baseUrl, account.full).post(
        '/events',
        eventBody({ wfstatus: 'approved', trcItemCategories: { categories: [{ catid: 'p-1001', value: 'true' }] } }),
      )
    ).body;
    // A reader that sees the organisation wherever it goes.
    const api = client(app.baseUrl, await superAdminToken(ctx.db, account.accountId));
    const listed = async () => labels((await api.get(`/events?trcid=${encodeURIComponent(item.trcid)}`)).body);
    const base = (await listed())[0];

    await putPropertiesOntology(ctx.db, { accountId: account.accountId, ontology: ontology('Eerste naam') as never });
    expect(await listed()).toEqual(['Eerste naam']);

    const otherAccount = `acc-${randomUUID().slice(0, 12)}`;
    await createTestAccount(ctx.db, { accountId: otherAccount, organisations: [] });
    await putPropertiesOntology(ctx.db, { accountId: otherAccount, ontology: ontology('Andere naam') as never });
    expect(await listed(), "another account's ontology changed nothing here").toEqual(['Eerste naam']);
    await ctx.db.query('UPDATE organisations SET account_id = $1 WHERE userorganisation = $2', [
      otherAccount,
      account.organisations[0],
    ]);
    expect(await listed()).toEqual(['Andere naam']);
    expect(base).not.toBe('Eerste naam');
  });
});
