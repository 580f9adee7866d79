import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Collection } from '../../src/domain/entityRules.ts';
import { describeEachEngine } from '../support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { rawClient, type RawAnswer, type RawClient } from '../support/security/rawHttp.ts';
import { buildWorld, COLLECTION_NAMES, createItem, itemBody, type SecurityWorld } from '../support/security/world.ts';

// Server-set fields are never writable (OWASP API3 mass assignment; DEC-ITEM-005, DEC-ITEM-020,
// DEC-AUTH-009, DEC-ASSET-002/007): item fields the server sets are accepted and ignored on POST
// and PUT; token fields the server sets are refused by the closed token schemas; asset fields
// other than the editable metadata are ignored.

const FORGED_ID = '3f1b6d2e-8c4a-4e7b-9f10-2a5c7d9e1b34';
const FORGED_TIME = '2001-01-01T00:00:00.000Z';
const FORGED = 'FORGED-BY-CLIENT';

/** Every server-set field of an item, with values the server must not keep. */
function forgedItemFields(catid: string): Record<string, unknown> {
  return {
    id: FORGED_ID,
    creationdate: FORGED_TIME,
    lastupdated: FORGED_TIME,
    externalId: `${FORGED}:1`,
    published: true,
    deleted: false,
    offline: false,
    trcItemCategories: { types: [{ catid, isDefault: true, categoryTranslations: [{ lang: 'nl', label: FORGED }] }] },
    seoMetadata: {
      schemaOrgJsonLd: JSON.stringify({ '@context': 'https://schema.org', '@type': 'Thing', name: FORGED }),
      schemaOrg: { '@context': 'https://schema.org', '@type': 'Thing', name: FORGED },
    },
  };
}

const TREE: Record<Collection, string> = {
  events: 'EVENEMENT',
  eventgroups: 'EVENEMENT',
  locations: 'LOCATIE',
  venues: 'LOCATIE',
  routes: 'ROUTE',
};

describeEachEngine('server-set fields are never writable', (ctx) => {
  let app: TestApp;
  let http: RawClient;
  let world: SecurityWorld;
  const catids = {} as Record<Collection, string>;

  beforeAll(async () => {
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    http = rawClient(app.baseUrl);
    world = await buildWorld(ctx.db, app);
    const ontology = (await send('GET', '/dictionary/categorizationOntology')).json as {
      categorizations: Array<{ cnetID: string; entityType: string }>;
    };
    for (const c of COLLECTION_NAMES)
      catids[c] = ontology.categorizations.find((node) => node.entityType === TREE[c])!.cnetID;
  });
  afterAll(async () => {
    await http?.close();
    await app?.close();
  });

  function send(method: string, path: string, body?: unknown, token = world.tokens.admin): Promise<RawAnswer> {
    return http.send({
      method,
      path,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  function expectServerValues(item: Record<string, unknown>, wfstatus: string, label: string): void {
    expect(item.id, label).not.toBe(FORGED_ID);
    expect(item.creationdate, label).not.toBe(FORGED_TIME);
    expect(item.lastupdated, label).not.toBe(FORGED_TIME);
    expect(item.externalId, label).toBeUndefined();
    expect({ published: item.published, deleted: item.deleted, offline: item.offline }, label).toEqual(
      wfstatus === 'approved'
        ? { published: true, deleted: false, offline: false }
        : { published: false, deleted: true, offline: true },
    );
    expect(JSON.stringify(item), label).not.toContain(FORGED);
    const types = (item.trcItemCategories as { types: Array<{ categoryTranslations?: unknown[] }> }).types;
    expect(types[0]!.categoryTranslations?.length, `${label}: labels come from the ontology`).toBeGreaterThan(0);
  }

  describe('items', () => {
    it.each(COLLECTION_NAMES)(
      'when POST /%s sends id, creationdate, lastupdated, externalId, the legacy booleans, labels and schema.org, then they are ignored (DEC-ITEM-005, DEC-ITEM-020)',
      async (c) => {
        const started = Date.now();
        const answer = await send(
          'POST',
          `/${c}`,
          itemBody(c, {
            userorganisation: world.orgA1,
            wfstatus: 'readyforvalidation',
            ...forgedItemFields(catids[c]),
          }),
        );
        expect(answer.status, answer.body.toString()).toBe(201);
        const created = answer.json as Record<string, unknown>;
        expectServerValues(created, 'readyforvalidation', `POST /${c}`);
        expect(Date.parse(created.creationdate as string)).toBeGreaterThanOrEqual(started - 1000);
        expect((await send('GET', `/${c}/${FORGED_ID}`)).status).toBe(404);
        expect((await send('GET', `/${c}/${created.id as string}`)).json).toEqual(created);
      },
    );

    it.each(COLLECTION_NAMES)(
      "when PUT /%s/{id} sends forged server-set fields, another item's id and contradicting booleans, then the stored item keeps its own and the other item is untouched (DEC-ITEM-001, DEC-ITEM-005)",
      async (c) => {
        const target = await createItem(app.baseUrl, world.tokens.admin, c, {
          userorganisation: world.orgA1,
          wfstatus: 'readyforvalidation',
        });
        const bystander = world.items[c].approved;
        const before = (await send('GET', `/${c}/${target.id}`)).json as Record<string, unknown>;
        const bystanderBefore = (await send('GET', `/${c}/${bystander.id}`)).json;
        const body = itemBody(c, {
          userorganisation: world.orgA1,
          wfstatus: 'approved',
          ...forgedItemFields(catids[c]),
          id: bystander.id,
          published: false,
          deleted: true,
          offline: true,
        });
        const answer = await send('PUT', `/${c}/${target.id}`, body);
        expect(answer.status, answer.body.toString()).toBe(200);
        const stored = answer.json as Record<string, unknown>;
        expectServerValues(stored, 'approved', `PUT /${c}`);
        expect(stored.id).toBe(target.id);
        expect(stored.trcid).toBe(target.trcid);
        expect(stored.creationdate).toBe(before.creationdate);
        expect(stored.lastupdated).not.toBe(before.lastupdated);
        expect((await send('GET', `/${c}/${bystander.id}`)).json).toEqual(bystanderBefore);
      },
    );
  });

  describe('tokens', () => {
    const tokens = () => `/accounts/${world.accountA}/tokens`;
    const SERVER_SET: Array<[string, unknown]> = [
      ['signingSecret', 's'.repeat(43)],
      ['token', 'cst_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
      ['created', FORGED_TIME],
      ['id', FORGED_ID],
      ['hasSigningSecret', true],
      ['filter', 'userorganisations: everything'],
    ];

    it.each(SERVER_SET)(
      'when a token create carries %s, then 400 naming it; an update ignores it (a token answer can be sent back); nothing changes (DEC-AUTH-009)',
      async (field, value) => {
        const count = async () =>
          Number(
            (
              await ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM api_tokens WHERE account_id = $1', [
                world.accountA,
              ])
            ).rows[0]!.n,
          );
        const before = await count();
        const created = await send('POST', tokens(), {
          name: 'forged',
          roles: ['ROLE_EXTERNAL_USER'],
          callBackUrl: 'https://93.184.215.14/hook',
          [field]: value,
        });
        expect(created.status).toBe(400);
        expect((created.json as { message: string }).message).toContain(field);
        expect(await count()).toBe(before);
        const hashBefore = (
          await ctx.db.query<{ token_hash: string }>('SELECT token_hash FROM api_tokens WHERE id = $1', [
            world.tokenOfA.id,
          ])
        ).rows[0]!.token_hash;
        const updated = await send('PUT', `${tokens()}/${world.tokenOfA.id}`, { [field]: value });
        expect(updated.status, updated.body.toString()).toBe(200);
        expect((updated.json as { id: string }).id).toBe(world.tokenOfA.id);
        const { rows } = await ctx.db.query<{ signing_secret: string; created: Date; token_hash: string }>(
          'SELECT signing_secret, created, token_hash FROM api_tokens WHERE id = $1',
          [world.tokenOfA.id],
        );
        expect(rows[0]!.signing_secret).toBe('s'.repeat(43)); // as the world stored it
        expect(rows[0]!.created.toISOString()).not.toBe(FORGED_TIME);
        expect(rows[0]!.token_hash).toBe(hashBefore);
      },
    );
  });

  describe('assets', () => {
    it('when PUT /assets/{id} sends id, size, mimetype, dimensions, url, created and modified, then only the editable metadata changes (DEC-ASSET-002, DEC-ASSET-007)', async () => {
      const path = `/assets/${world.assetA.id}`;
      const before = (
        (await send('GET', '/assets?size=1000')).json as { results: Array<Record<string, unknown>> }
      ).results.find((a) => a.id === world.assetA.id)!;
      const answer = await send('PUT', path, {
        id: FORGED_ID,
        size: 1,
        mimetype: 'text/html',
        width: 1,
        height: 1,
        url: 'https://evil.example/x.html',
        created: FORGED_TIME,
        modified: FORGED_TIME,
        title: 'Renamed',
        filename: before.filename,
      });
      expect(answer.status, answer.body.toString()).toBe(200);
      const after = answer.json as Record<string, unknown>;
      for (const field of ['id', 'size', 'mimetype', 'width', 'height', 'url', 'created'] as const)
        expect(after[field], field).toEqual(before[field]);
      expect(after.modified).not.toBe(FORGED_TIME);
      expect(after.title).toBe('Renamed');
      const file = await send('GET', `${path}/${world.assetA.filename}`);
      expect(file.headers['content-type']).toBe('image/png');
    });
  });

  describe('the property ontology', () => {
    it('when PUT /dictionary/propertiesOntology sends lastModified, then the server sets its own', async () => {
      const path = `/dictionary/propertiesOntology?accountId=${world.accountA}`;
      const current = (await send('GET', path)).json as Record<string, unknown>;
      const answer = await send('PUT', path, { ...current, lastModified: FORGED_TIME });
      expect(answer.status, answer.body.toString()).toBe(200);
      expect((answer.json as { lastModified: string }).lastModified).not.toBe(FORGED_TIME);
    });
  });
});
