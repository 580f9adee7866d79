import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMemoryFileStore } from '../assets/memoryFileStore.ts';
import { client } from '../../test/support/items/itemsHarness.ts';
import { responseProblems } from '../../test/support/items/responseSchemas.ts';
import { createOntologyCache } from '../dictionary/ontologyCache.ts';
import { listItems } from '../storage/items/listItems.ts';
import { describeEachEngine, openTestDb } from '../../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';
import { ignoreItemChanges } from '../webhooks/itemChange.ts';
import { ensureBootstrapAdminToken } from './bootstrapAdminToken.ts';
import { demoItems } from './demoItems.ts';
import { seedDemoData, type SeedResult } from './seedDemoData.ts';

const COLLECTIONS = {
  events: 'EVENEMENT',
  locations: 'LOCATIE',
  venues: 'VENUE',
  eventgroups: 'EVENTGROUP',
  routes: 'ROUTE',
} as const;
const STATUSES = ['readyforvalidation', 'approved', 'rejected', 'archived', 'deleted'];
const LIST_OPERATIONS = {
  events: 'listEvents',
  locations: 'listLocations',
  venues: 'listVenues',
  eventgroups: 'listEventGroups',
  routes: 'listRoutes',
} as const;

describeEachEngine('demo data', (ctx) => {
  let app: TestApp;
  let seed: SeedResult;
  const token = (label: string) => seed.tokens.find((t) => t.label === label)!.token;
  beforeAll(async () => {
    const assetStore = createMemoryFileStore();
    seed = await seedDemoData(
      ctx.db,
      { recordItemChange: ignoreItemChanges, ontologies: createOntologyCache(ctx.db) },
      { assetStore },
    );
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' }, deps: { assetStore } });
  });
  afterAll(() => app.close());

  it('when the store is empty, then items of every entity type in every status are seeded [ITEM-001] [ITEM-028]', async () => {
    expect(seed.seeded).toBe(true);
    const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM items');
    expect(rows[0]!.n).toBe(demoItems().length);
    for (const entitytype of Object.values(COLLECTIONS)) {
      const items = await listItems(ctx.db, {
        entitytype,
        scope: { userorganisations: 'all', wfstatus: 'all' },
        wfstatus: STATUSES as never,
        limit: 1000,
      });
      expect(new Set(items.map((i) => i.wfstatus)), entitytype).toEqual(new Set(STATUSES));
    }
  });

  it('when the demo tokens are used, then each sees its scope and every list validates against the spec [AUTH-004] [AUTH-005] [DEC-AUTH-004]', async () => {
    const live = client(app.baseUrl, token('live consumer'));
    const sync = client(app.baseUrl, token('sync (sees archived and deleted)'));
    const superAdmin = client(app.baseUrl, token('super admin'));
    for (const [collection, operation] of Object.entries(LIST_OPERATIONS)) {
      const everything = await superAdmin.get(`/${collection}?wfstatus=${STATUSES.join(',')}&size=100`);
      expect(new Set(everything.body.map((i: any) => i.wfstatus)), collection).toEqual(new Set(STATUSES));
      expect(responseProblems(operation, 200, everything.body), collection).toEqual([]);
    }
    const liveEvents = (await live.get('/events')).body;
    expect(liveEvents.length).toBeGreaterThan(0);
    expect(liveEvents.every((i: any) => i.wfstatus === 'approved' && i.userorganisation.startsWith('amsterdam-'))).toBe(
      true,
    );
    expect((await sync.get('/events?wfstatus=deleted')).body.length).toBeGreaterThan(0);
    // Every admin may write its own account's property ontology.
    const ontology = (await client(app.baseUrl, token('admin of zeeland')).get('/dictionary/propertiesOntology')).body;
    expect(
      (
        await client(app.baseUrl, token('admin of zeeland')).put(
          '/dictionary/propertiesOntology?accountId=zeeland',
          ontology,
        )
      ).status,
    ).toBe(200);
  });

  it('when the first account lists its assets, then it sees the demo images, with and without modified, and their files [ASSET-001] [ASSET-003] [ASSET-015]', async () => {
    expect(seed.assets).toBe(3);
    const live = client(app.baseUrl, token('live consumer'));
    const page = await live.get('/assets');
    expect(page.status).toBe(200);
    expect(responseProblems('listAssets', 200, page.body)).toEqual([]);
    const assets: any[] = page.body.results;
    expect(assets).toHaveLength(3);
    expect(assets.filter((a) => a.modified !== undefined).map((a) => a.filename)).toEqual(['jaarbeurs-hal.jpg']);
    for (const asset of assets) {
      expect(asset.mimetype).toMatch(/^image\/(jpeg|png)$/);
      expect(asset.width).toBeGreaterThan(0);
      expect(asset.url).toMatch(new RegExp(`/assets/${asset.id}/${asset.filename}$`));
      const file = await fetch(`${app.baseUrl}/assets/${asset.id}/${asset.filename}`, {
        headers: { authorization: `Bearer ${token('live consumer')}` },
      });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe(asset.mimetype);
      expect((await file.arrayBuffer()).byteLength).toBe(asset.size);
    }
  });

  it('when every readable demo item is sent back as it was read, then each PUT answers 200 (the service tolerates what it emits) [DEC-ITEM-005]', async () => {
    const superAdmin = client(app.baseUrl, token('super admin'));
    let sent = 0;
    for (const collection of Object.keys(COLLECTIONS)) {
      const items = (
        await superAdmin.get(`/${collection}?wfstatus=${STATUSES.filter((s) => s !== 'deleted')}&size=100`)
      ).body;
      for (const item of items) {
        const read = await superAdmin.get(`/${collection}/${item.id}`);
        const put = await superAdmin.put(`/${collection}/${item.id}`, read.body);
        expect(put.status, `${collection} ${item.id}: ${JSON.stringify(put.body)}`).toBe(200);
        sent++;
      }
    }
    expect(sent).toBeGreaterThanOrEqual(20);
  });

  it('when the demo accounts are listed, then their ontology overrides are in place [DICT-005] [ONTO-015]', async () => {
    const organisations = (await client(app.baseUrl, token('live consumer')).get('/dictionary/userorganisations')).body;
    const byOrganisation = Object.fromEntries(organisations.map((o: any) => [o.userorganisation, o]));
    expect(byOrganisation['utrecht-toerisme'].ontology).toEqual({ categorization: 'account', properties: 'base' });
    expect(byOrganisation['vvv-zeeland'].ontology).toEqual({ categorization: 'base', properties: 'account' });
    expect(byOrganisation['amsterdam-marketing'].ontology).toEqual({ categorization: 'base', properties: 'base' });
  });

  it('when the store holds data, then nothing is seeded again and the demo tokens get new values that work', async () => {
    const before = seed.tokens;
    const again = await seedDemoData(ctx.db, {
      recordItemChange: ignoreItemChanges,
      ontologies: createOntologyCache(ctx.db),
    });
    expect(again).toMatchObject({ seeded: false, items: 0, users: [] });
    // Tokens seeded in the same millisecond come back in id order: compare them by label.
    const described = (tokens: typeof before) =>
      tokens.map((t) => [t.label, t.roles, t.scope]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(described(again.tokens)).toEqual(described(before));
    const live = (tokens: typeof before) => tokens.find((t) => t.label === 'live consumer')!.token;
    expect(live(again.tokens)).not.toBe(live(before));
    expect((await client(app.baseUrl, live(again.tokens)).get('/events')).status).toBe(200);
    expect((await client(app.baseUrl, live(before)).get('/events')).status).toBe(401);
    seed = again;
  });

  it('when a user created a token named like a demo token, then a restart leaves it alone and renews only the seeded ones', async () => {
    const admin = client(app.baseUrl, token('admin of amsterdam'));
    const mine = await admin.post('/accounts/amsterdam/tokens', { name: 'demo kiosk', roles: ['ROLE_EXTERNAL_USER'] });
    expect(mine.status).toBe(201);
    const { rows } = await ctx.db.query<{ name: string; demo: boolean }>(
      'SELECT name, demo FROM api_tokens WHERE demo ORDER BY name',
    );
    expect(rows.map((r) => r.name)).not.toContain('demo kiosk');
    expect(rows).toHaveLength(seed.tokens.length);
    const again = await seedDemoData(ctx.db, {
      recordItemChange: ignoreItemChanges,
      ontologies: createOntologyCache(ctx.db),
    });
    expect(again.tokens.map((t) => t.label)).not.toContain('kiosk');
    expect(again.tokens).toHaveLength(seed.tokens.length);
    expect((await client(app.baseUrl, mine.body.token).get('/events')).status).toBe(200);
    seed = again;
  });

  it('when two instances seed one empty store at once, then exactly one seeds', async () => {
    const other = await openTestDb(ctx.engine);
    try {
      const deps = { recordItemChange: ignoreItemChanges, ontologies: createOntologyCache(other.db) };
      const results = await Promise.all([seedDemoData(other.db, deps), seedDemoData(other.db, deps)]);
      expect(results.map((r) => r.seeded).sort()).toEqual([false, true]);
      const { rows } = await other.db.query<{ n: number }>('SELECT count(*)::int AS n FROM items');
      expect(rows[0]!.n).toBe(demoItems().length);
    } finally {
      await other.close();
    }
  });

  it('when the bootstrap admin token is ensured twice, then it exists once and is a super admin [DEC-AUTH-005] [DEC-AUTH-006]', async () => {
    const value = `bootstrap-${'y'.repeat(40)}`;
    expect(await ensureBootstrapAdminToken(ctx.db, value)).toEqual({ created: true });
    expect(await ensureBootstrapAdminToken(ctx.db, value)).toEqual({ created: false });
    const { rows } = await ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM api_tokens WHERE name LIKE 'bootstrap%'",
    );
    expect(rows[0]!.n).toBe(1);
    const admin = client(app.baseUrl, value);
    expect((await admin.get('/events?wfstatus=deleted')).body.length).toBeGreaterThan(0);
    expect((await admin.get('/venues?wfstatus=approved')).body.map((i: any) => i.userorganisation)).toEqual(
      expect.arrayContaining(['utrecht-toerisme', 'amsterdam-marketing']),
    );
  });
});
