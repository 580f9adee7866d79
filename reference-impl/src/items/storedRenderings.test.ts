import { afterAll, beforeAll, expect, it } from 'vitest';
import { client, eventBody, newTestAccount, type TestAccount } from '../../test/support/items/itemsHarness.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { listItems, streamRenderedItems, type ListedItem, type ListItemsParams } from '../storage/items/listItems.ts';
import { insertItem } from '../storage/items/insertItem.ts';
import { putPropertiesOntology } from '../storage/dictionary/putPropertiesOntology.ts';
import { createTestAccount } from '../../test/support/fixtures.ts';
import { storeRenderings } from '../storage/items/staleRenderings.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';
import { RENDERER_VERSION, renderItems, renderPage, storedRenderingOf } from './renderItem.ts';
import { refreshRenderings, createRenderingRefresher } from './renderingRefresher.ts';
import type { Queryable } from '../storage/db.ts';
import { createLogger } from '../logger.ts';
import { createOntologyCache } from '../dictionary/ontologyCache.ts';

// Stored renderings (migration 007) are a cache of what renderItem computes: a list written from
// them must be the same text as one rendered live, and a stale one must never be used.

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

const withCategory = (overrides: Record<string, unknown> = {}) =>
  eventBody({
    wfstatus: 'approved',
    trcItemCategories: { categories: [{ catid: 'p-1001', value: 'true' }] },
    ...overrides,
  });

describeEachEngine('stored item renderings', (ctx) => {
  let app: TestApp;
  let account: TestAccount;
  let params: ListItemsParams;
  const cache = () => createOntologyCache(ctx.db);
  /** The rows as the list route gets them, all at once. */
  const listRenderedItems = async (params: Parameters<typeof streamRenderedItems>[1]) => {
    const rows: ListedItem[] = [];
    for await (const batch of streamRenderedItems(ctx.db, params)) rows.push(...batch);
    return rows;
  };
  /** The page the list route writes from `listed`, and how many of its items were rendered live. */
  const render = async (listed: readonly ListedItem[]) => {
    let renderedLive: number | undefined;
    const pieces: Buffer[] = [];
    for await (const piece of renderPage(cache(), [listed], (count) => (renderedLive = count))) pieces.push(piece);
    return { text: Buffer.concat(pieces).toString(), renderedLive };
  };
  /** The page as the list route writes it, and as it would be rendered live from the documents. */
  const pages = async () => {
    const listed = await listRenderedItems({ ...params, rendererVersion: RENDERER_VERSION });
    const page = await render(listed);
    const live = JSON.stringify(await renderItems(cache(), await listItems(ctx.db, params)));
    return { listed, page, live };
  };

  beforeAll(async () => {
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    account = await newTestAccount(ctx.db);
    params = {
      entitytype: 'EVENEMENT',
      scope: { userorganisations: account.organisations, wfstatus: 'all' },
      wfstatus: ['approved', 'archived'],
      sortField: 'lastupdated',
      sortOrder: 'ASC',
      limit: 100,
    };
    const api = client(app.baseUrl, account.full);
    for (let i = 0; i < 3; i++) expect((await api.post('/events', withCategory())).status).toBe(201);
    // One with a pattern, one with a stray server field in its body (ignored on write).
    expect(
      (
        await api.post(
          '/events',
          withCategory({
            calendar: {
              patternDates: [
                {
                  startdate: '2027-06-01',
                  enddate: '2027-06-30',
                  recurrencyType: 'weekly',
                  opens: [
                    { day: 2, whens: [{ timestart: '10:00' }] },
                    { day: 5, whens: [{ timestart: '10:00' }] },
                  ],
                },
              ],
            },
            published: false,
          }),
        )
      ).status,
    ).toBe(201);
  });
  afterAll(() => app.close());

  it('when items are written through the API, then each stores its rendering and the page written from them is the text rendered live', async () => {
    const { listed, page, live } = await pages();
    expect(listed).toHaveLength(4);
    expect(listed.every((item) => item.renderedBody !== null && item.doc === null)).toBe(true);
    expect(page.renderedLive).toBe(0);
    expect(page.text).toBe(live);
    // And the list route answers exactly that text.
    const answer = await fetch(
      `${app.baseUrl}/events?wfstatus=approved,archived&sortField=lastupdated&sortOrder=ASC&size=100`,
      { headers: { authorization: `Bearer ${account.full}` } },
    );
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await answer.text()).toBe(live);
  });

  it("when the owner's ontology changes, then the stored renderings are not used (the new label shows at once) until renewed, and the renewed ones equal the live rendering [ONTO-006] [ONTO-008]", async () => {
    const admin = client(app.baseUrl, account.admin);
    expect(
      (await admin.put(`/dictionary/propertiesOntology?accountId=${account.accountId}`, ontology('Eerste'))).status,
    ).toBe(200);
    const stale = await pages();
    expect(stale.listed.every((item) => item.renderedBody === null && item.doc !== null)).toBe(true);
    expect(stale.page.renderedLive).toBe(4);
    expect(stale.page.text).toBe(stale.live);
    expect(JSON.parse(stale.page.text)[0].trcItemCategories.categories[0].categoryTranslations[0].label).toBe('Eerste');

    expect(await refreshRenderings(ctx.db, cache())).toBeGreaterThanOrEqual(4);
    const renewed = await pages();
    expect(renewed.page.renderedLive).toBe(0);
    expect(renewed.page.text).toBe(renewed.live);

    // A second change, read through the route at once: the label of the moment.
    await admin.put(`/dictionary/propertiesOntology?accountId=${account.accountId}`, ontology('Tweede'));
    const listed = (await client(app.baseUrl, account.full).get('/events?wfstatus=approved,archived&size=100')).body;
    expect(listed.map((item: any) => item.trcItemCategories.categories[0].categoryTranslations[0].label)).toEqual([
      'Tweede',
      'Tweede',
      'Tweede',
      'Tweede',
    ]);
    await refreshRenderings(ctx.db, cache());
  });

  it("when the renderer's version differs from the stored one, then the stored renderings are stale", async () => {
    const listed = await listRenderedItems({ ...params, rendererVersion: RENDERER_VERSION + 1 });
    expect(listed.every((item) => item.renderedBody === null && item.doc !== null)).toBe(true);
  });

  it('when a document is changed by a write that brings no rendering, then the stored one is dropped (the trigger), and a pass renews it', async () => {
    const [first] = await listItems(ctx.db, params);
    await ctx.db.query(
      `UPDATE items SET doc = jsonb_set(doc, '{trcItemDetails,0,title}', '"Elders gewijzigd"') WHERE id = $1`,
      [first!.id],
    );
    const { listed, page, live } = await pages();
    expect(listed.find((item) => item.id === first!.id)!.renderedBody).toBeNull();
    expect(page.text).toBe(live);
    expect(JSON.parse(page.text)[0].trcItemDetails[0].title).toBe('Elders gewijzigd');
    expect(await refreshRenderings(ctx.db, cache())).toBe(1);
    expect((await pages()).page.renderedLive).toBe(0);
  });

  it('when an item was written again since it was rendered, then that rendering is not stored over the new one', async () => {
    const [first] = await listItems(ctx.db, params);
    const owner = (await cache().ontologiesForOrganisations([first!.userorganisation])).get(first!.userorganisation)!;
    const outdated = storedRenderingOf(first!.entitytype, { ...first!.doc, longdescription: 'outdated' }, owner);
    const stored = await storeRenderings(ctx.db, [
      { id: first!.id, lastupdated: new Date(first!.lastupdated.getTime() - 1), rendering: outdated },
    ]);
    expect(stored).toBe(0);
    const { page, live } = await pages();
    expect(page.text).toBe(live);
  });

  it('when an item was stored without a rendering (a bulk load), or belongs to an organisation no account owns, then it is rendered live and a pass renews it', async () => {
    const orphan = `${account.accountId}-unowned`;
    await insertItem(ctx.db, {
      entitytype: 'EVENEMENT',
      trcid: `trc-${orphan}`,
      wfstatus: 'approved',
      userorganisation: orphan,
      externalId: null,
      title: 'Wees',
      slug: null,
      doc: {
        trcItemDetails: [{ lang: 'nl', title: 'Wees' }],
        trcItemCategories: { categories: [{ catid: 'p-1001', value: 'true' }] },
      },
    });
    const orphanParams = { ...params, scope: { userorganisations: [orphan], wfstatus: 'all' as const } };
    const before = await listRenderedItems({ ...orphanParams, rendererVersion: RENDERER_VERSION });
    expect(before[0]!.renderedBody).toBeNull();
    await refreshRenderings(ctx.db, cache());
    const after = await listRenderedItems({ ...orphanParams, rendererVersion: RENDERER_VERSION });
    expect(after[0]!.renderedBody).not.toBeNull();
    expect((await render(after)).text).toBe(
      JSON.stringify(await renderItems(cache(), await listItems(ctx.db, orphanParams))),
    );
    // Base labels: no account's ontology applies.
    expect(
      JSON.parse((await render(after)).text)[0].trcItemCategories.categories[0].categoryTranslations[0].label,
    ).toBe('Rolstoeltoegankelijk');
  });

  it('when the background refresher runs, then it renews at start, and requests in quick succession make one more pass, not one each', async () => {
    const orphan = `${account.accountId}-late`;
    await insertItem(ctx.db, {
      entitytype: 'EVENEMENT',
      trcid: `trc-${orphan}`,
      wfstatus: 'approved',
      userorganisation: orphan,
      externalId: null,
      title: 'Laat',
      slug: null,
      doc: { trcItemDetails: [{ lang: 'nl', title: 'Laat' }] },
    });
    let passes = 0;
    const counting: Queryable = {
      query: (sql, values) => {
        if (sql.includes('ORDER BY items.id LIMIT') && values?.[1] === null) passes++; // a pass's first batch
        return ctx.db.query(sql, values);
      },
    };
    const refresher = createRenderingRefresher({
      db: counting,
      cache: cache(),
      logger: createLogger({ level: 'silent' }),
      minIntervalMs: 300,
    });
    refresher.start();
    try {
      const fresh = async () =>
        (
          await listRenderedItems({
            ...params,
            scope: { userorganisations: [orphan], wfstatus: 'all' },
            rendererVersion: RENDERER_VERSION,
          })
        )[0]!.renderedBody !== null;
      await expect.poll(fresh, { timeout: 10_000 }).toBe(true);
      expect(passes).toBe(1);
      for (let i = 0; i < 5; i++) refresher.requestRefresh();
      await expect.poll(() => passes, { timeout: 10_000 }).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(passes).toBe(2);
    } finally {
      await refresher.stop();
    }
  });

  it('when an item is soft deleted, then its stored rendering stays current (the document did not change) and the write answers are the text a read gives', async () => {
    const api = client(app.baseUrl, account.full);
    const created = await fetch(`${app.baseUrl}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.full}`, 'content-type': 'application/json' },
      body: JSON.stringify(withCategory()),
    });
    const createdText = await created.text();
    const { id } = JSON.parse(createdText);
    const replaced = await fetch(`${app.baseUrl}/events/${id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${account.full}`, 'content-type': 'application/json' },
      body: createdText,
    });
    expect(replaced.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const replacedText = await replaced.text();
    expect(replacedText).toBe(
      await (
        await fetch(`${app.baseUrl}/events/${id}`, { headers: { authorization: `Bearer ${account.full}` } })
      ).text(),
    );

    expect((await api.delete(`/events/${id}`)).status).toBe(204);
    const deleted = await listRenderedItems({
      ...params,
      wfstatus: ['deleted'],
      rendererVersion: RENDERER_VERSION,
    });
    expect(deleted.map((item) => item.id)).toContain(id);
    expect(deleted.every((item) => item.renderedBody !== null)).toBe(true);
    const page = await render(deleted);
    expect(page.text).toBe(
      JSON.stringify(await renderItems(cache(), await listItems(ctx.db, { ...params, wfstatus: ['deleted'] }))),
    );
  });

  it("when an unowned organisation is taken by an account, then its items' renderings are stale at once and the account's ontology shows (the owner is found by userorganisation)", async () => {
    const adopted = `${account.accountId}-adopted`;
    await insertItem(ctx.db, {
      entitytype: 'EVENEMENT',
      trcid: `trc-${adopted}`,
      wfstatus: 'approved',
      userorganisation: adopted,
      externalId: null,
      title: 'Geadopteerd',
      slug: null,
      doc: { trcItemCategories: { categories: [{ catid: 'p-1001', value: 'true' }] } },
    });
    await refreshRenderings(ctx.db, cache());
    const scoped = {
      ...params,
      scope: { userorganisations: [adopted], wfstatus: 'all' as const },
      rendererVersion: RENDERER_VERSION,
    };
    expect((await listRenderedItems(scoped))[0]!.renderedBody).not.toBeNull();

    const owner = `${account.accountId}-owner`;
    await createTestAccount(ctx.db, { accountId: owner, organisations: [adopted] });
    await putPropertiesOntology(ctx.db, { accountId: owner, ontology: ontology('Geadopteerd label') as never });
    const page = await render(await listRenderedItems(scoped));
    expect(page.renderedLive).toBe(1);
    expect(JSON.parse(page.text)[0].trcItemCategories.categories[0].categoryTranslations[0].label).toBe(
      'Geadopteerd label',
    );
    expect(page.text).toBe(JSON.stringify(await renderItems(cache(), await listItems(ctx.db, scoped))));
  });

  it('when a rendering was made by a newer renderer (a rolling deploy), then this renderer reads the item live and its pass leaves that rendering alone', async () => {
    const newer = `${account.accountId}-newer`;
    const item = await insertItem(ctx.db, {
      entitytype: 'EVENEMENT',
      trcid: `trc-${newer}`,
      wfstatus: 'approved',
      userorganisation: newer,
      externalId: null,
      title: 'Nieuwer',
      slug: null,
      doc: { trcItemDetails: [{ lang: 'nl', title: 'Nieuwer' }] },
    });
    await ctx.db.query(`UPDATE items SET rendered_body = '"by":"a newer renderer"', rendered_key = $2 WHERE id = $1`, [
      item.id,
      `${RENDERER_VERSION + 1}:||`,
    ]);
    await refreshRenderings(ctx.db, cache());
    const { rows } = await ctx.db.query<{ rendered_key: string }>('SELECT rendered_key FROM items WHERE id = $1', [
      item.id,
    ]);
    expect(rows[0]!.rendered_key).toBe(`${RENDERER_VERSION + 1}:||`);
    const scoped = { ...params, scope: { userorganisations: [newer], wfstatus: 'all' as const } };
    const page = await render(await listRenderedItems({ ...scoped, rendererVersion: RENDERER_VERSION }));
    expect(page.renderedLive).toBe(1);
    expect(page.text).toBe(JSON.stringify(await renderItems(cache(), await listItems(ctx.db, scoped))));
  });
});
