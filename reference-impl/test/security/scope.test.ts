import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Collection } from '../../src/domain/entityRules.ts';
import { loadOpenApiDocument, type JsonObject } from '../../src/http/openapiDocument.ts';
import { describeEachEngine } from '../support/storage/testDb.ts';
import { ALL_STATUSES } from '../support/fixtures.ts';
import { startWebhookHarness, waitFor, type WebhookHarness } from '../support/webhooks/harness.ts';
import { startReceiver, type Receiver } from '../support/webhooks/receiver.ts';
import { callerBearers, type Caller } from '../support/security/callers.ts';
import { rawClient, type RawClient } from '../support/security/rawHttp.ts';
import { buildWorld, COLLECTION_NAMES, createItem, type SecurityWorld } from '../support/security/world.ts';

// Nothing outside a caller's scope leaks (OWASP API1 BOLA, API5; AUTH-004, HOOK-008, DEC-LIST-006,
// DEC-ITEM-004, DEC-ASSET-004): not through any list with any filter, not through the asset list,
// not through a webhook. Detail reads, the route exports and the feed endpoints are in the
// authorisation matrix (authz.test.ts), row by row.

type Scope = { organisations: readonly string[] | 'all'; statuses: readonly string[] };

const LISTING_CALLERS = [
  'external',
  'otherAdmin',
  'admin',
  'superAdmin',
  'otherOrg',
  'live',
  'session',
] as const satisfies readonly Caller[];
type ListingCaller = (typeof LISTING_CALLERS)[number];

function scopes(w: SecurityWorld): Record<ListingCaller, Scope> {
  const a = [w.orgA1, w.orgA2];
  return {
    external: { organisations: a, statuses: ALL_STATUSES },
    otherAdmin: { organisations: [w.orgB1], statuses: ALL_STATUSES },
    admin: { organisations: a, statuses: ALL_STATUSES },
    superAdmin: { organisations: 'all', statuses: ALL_STATUSES },
    otherOrg: { organisations: [w.orgA2], statuses: ALL_STATUSES },
    live: { organisations: a, statuses: ['approved'] },
    session: { organisations: a, statuses: ALL_STATUSES },
  };
}

const parameters = (loadOpenApiDocument().components as JsonObject).parameters as Record<
  string,
  { schema: { enum?: string[] } }
>;
const WFSTATUS_VALUES = ((loadOpenApiDocument().components as JsonObject).schemas as Record<string, { enum: string[] }>)
  .WfStatus!.enum;
const SORT_FIELDS = parameters.SortField!.schema.enum!;

interface ListAsk {
  caller: ListingCaller;
  collection: Collection;
  wfstatus: string[] | undefined;
  published: boolean | undefined;
  /** Which of the world's items to ask for by trcid. */
  trcidOf: 'approved' | 'hidden' | 'archived' | 'deleted' | 'inA2' | 'inB' | undefined;
  lastupdated: string | undefined;
  sortField: string;
  sortOrder: 'ASC' | 'DESC';
}

const listAsk: fc.Arbitrary<ListAsk> = fc.record({
  caller: fc.constantFrom(...LISTING_CALLERS),
  collection: fc.constantFrom(...COLLECTION_NAMES),
  wfstatus: fc.option(fc.uniqueArray(fc.constantFrom(...WFSTATUS_VALUES), { minLength: 1 }), { nil: undefined }),
  published: fc.option(fc.boolean(), { nil: undefined }),
  trcidOf: fc.option(
    fc.constantFrom(
      'approved' as const,
      'hidden' as const,
      'archived' as const,
      'deleted' as const,
      'inA2' as const,
      'inB' as const,
    ),
    { nil: undefined, freq: 2 },
  ),
  lastupdated: fc.option(fc.constantFrom('2000-01-01', '2000-01-01T00:00:00Z'), { nil: undefined }),
  sortField: fc.constantFrom(...SORT_FIELDS),
  sortOrder: fc.constantFrom('ASC' as const, 'DESC' as const),
});

interface ListedItem {
  id: string;
  trcid: string;
  entitytype: string;
  wfstatus: string;
  userorganisation: string;
}

describeEachEngine("nothing leaks out of the caller's scope", (ctx) => {
  let h: WebhookHarness;
  let http: RawClient;
  let world: SecurityWorld;
  let bearers: Record<Caller, string | undefined>;

  beforeAll(async () => {
    h = await startWebhookHarness(ctx.db);
    http = rawClient(h.app.baseUrl);
    world = await buildWorld(ctx.db, h.app);
    bearers = await callerBearers(h.app, http, world);
  });
  afterAll(async () => {
    await http?.close();
    await h?.close();
  });

  const as = (caller: Caller) => ({ authorization: `Bearer ${bearers[caller]}` });

  describe('GET /{collection} with any filter', () => {
    it('when any caller lists any collection with any combination of wfstatus, published, trcid, lastupdated and sort, then every item is of its organisations and statuses, and deleted items come only when asked for', async () => {
      const scope = scopes(world);
      let itemsSeen = 0;
      await fc.assert(
        fc.asyncProperty(listAsk, async (ask) => {
          const query = new URLSearchParams({ size: '2000', sortField: ask.sortField, sortOrder: ask.sortOrder });
          if (ask.wfstatus !== undefined) query.set('wfstatus', ask.wfstatus.join(','));
          if (ask.published !== undefined) query.set('published', String(ask.published));
          if (ask.trcidOf !== undefined) query.set('trcid', world.items[ask.collection][ask.trcidOf].trcid);
          if (ask.lastupdated !== undefined) query.set('lastupdated', ask.lastupdated);
          const answer = await http.send({
            method: 'GET',
            path: `/${ask.collection}?${query}`,
            headers: as(ask.caller),
          });
          expect(answer.status, answer.body.toString().slice(0, 300)).toBe(200);
          const { organisations, statuses } = scope[ask.caller];
          for (const item of answer.json as ListedItem[]) {
            itemsSeen += 1;
            const where = `${ask.caller} GET /${ask.collection}?${query} returned ${item.trcid} (${item.userorganisation}, ${item.wfstatus})`;
            expect(organisations === 'all' || organisations.includes(item.userorganisation), where).toBe(true);
            expect(statuses.includes(item.wfstatus), where).toBe(true);
            if (item.wfstatus === 'deleted') expect(ask.wfstatus?.includes('deleted'), where).toBe(true);
            if (ask.wfstatus !== undefined) expect(ask.wfstatus.includes(item.wfstatus), where).toBe(true);
            if (ask.published !== undefined) expect(item.wfstatus === 'approved', where).toBe(ask.published);
            if (ask.trcidOf !== undefined)
              expect(item.trcid, where).toBe(world.items[ask.collection][ask.trcidOf].trcid);
            expect(item.entitytype, where).toBe(
              {
                events: 'EVENEMENT',
                locations: 'LOCATIE',
                venues: 'VENUE',
                eventgroups: 'EVENTGROUP',
                routes: 'ROUTE',
              }[ask.collection],
            );
          }
        }),
        { numRuns: 150 },
      );
      // Not vacuous: the lists held items to judge.
      expect(itemsSeen).toBeGreaterThan(50);
    });

    it('when a caller asks by trcid for an item outside its scope, then the list is empty rather than a 403 or 404 (existence does not leak)', async () => {
      const cases: Array<[Caller, string]> = [
        ['otherAdmin', world.items.events.approved.trcid],
        ['external', world.items.events.inB.trcid],
        ['live', world.items.events.hidden.trcid],
        ['live', world.items.events.archived.trcid],
        ['otherOrg', world.items.events.approved.trcid],
        ['admin', world.items.events.deleted.trcid],
      ];
      for (const [caller, trcid] of cases) {
        const answer = await http.send({ method: 'GET', path: `/events?trcid=${trcid}`, headers: as(caller) });
        expect([caller, answer.status, answer.json]).toEqual([caller, 200, []]);
      }
    });
  });

  describe('GET /assets', () => {
    it("when each account lists its assets, then it never sees the other account's, and a super admin sees only its own account's (DEC-ASSET-004)", async () => {
      const ids = async (caller: Caller) =>
        (
          (await http.send({ method: 'GET', path: '/assets?size=1000', headers: as(caller) })).json as {
            results: Array<{ id: string }>;
          }
        ).results.map((a) => a.id);
      const [ofA, ofB, ofSuper] = [await ids('admin'), await ids('otherAdmin'), await ids('superAdmin')];
      expect(ofA).toContain(world.assetA.id);
      expect(ofA).not.toContain(world.assetB.id);
      expect(ofB).toContain(world.assetB.id);
      expect(ofB).not.toContain(world.assetA.id);
      expect(ofSuper).not.toContain(world.assetA.id);
      expect(ofSuper).not.toContain(world.assetB.id);
    });
  });

  describe('webhooks', () => {
    let receivers: Receiver[] = [];
    afterAll(async () => {
      for (const r of receivers) await r.close();
    });

    async function hook(
      token: string,
      accountId: string,
      url: string,
      filter?: Record<string, unknown>,
    ): Promise<void> {
      const body = JSON.stringify({
        name: 'scope hook',
        roles: ['ROLE_EXTERNAL_USER'],
        callBackUrl: url,
        ...(filter === undefined ? {} : { apiTokenFilter: filter }),
      });
      const answer = await http.send({
        method: 'POST',
        path: `/accounts/${accountId}/tokens`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      expect(answer.status, answer.body.toString()).toBe(201);
    }

    it("when items of A1, A2 and B change in every collection, then a receiver for a token of organisation A1 gets only A1 items, one for account A only A's and one for B only B's; bodies hold no item content", async () => {
      const [onlyA1, allOfA, ofB] = [await startReceiver(), await startReceiver(), await startReceiver()];
      receivers = [onlyA1, allOfA, ofB];
      await hook(world.tokens.admin, world.accountA, `${onlyA1.url}/a1`, {
        userorganisations: [world.orgA1],
        wfstatus: ['approved'],
      });
      await hook(world.tokens.admin, world.accountA, `${allOfA.url}/a`);
      await hook(world.tokens.otherAdmin, world.accountB, `${ofB.url}/b`);
      h.services.worker.start();

      const written = new Map<string, string>(); // item id → organisation
      for (const collection of COLLECTION_NAMES) {
        for (const [token, userorganisation, wfstatus] of [
          [world.tokens.admin, world.orgA1, 'approved'],
          [world.tokens.admin, world.orgA1, 'readyforvalidation'],
          [world.tokens.admin, world.orgA2, 'approved'],
          [world.tokens.otherAdmin, world.orgB1, 'approved'],
        ] as const) {
          const item = await createItem(h.app.baseUrl, token, collection, { userorganisation, wfstatus });
          written.set(item.id, userorganisation);
        }
      }
      const received = (r: Receiver) =>
        r.requests.flatMap(
          (q) => (JSON.parse(q.body.toString('utf8')) as { items: Array<Record<string, unknown>> }).items,
        );
      const idsOf = (r: Receiver) =>
        new Set(
          received(r)
            .map((i) => String(i.id).split('_')[0]!)
            .filter((id) => written.has(id)),
        );
      const expected = (orgs: string[]) =>
        new Set([...written].filter(([, org]) => orgs.includes(org)).map(([id]) => id));
      await waitFor(
        'every delivery',
        () =>
          idsOf(onlyA1).size >= expected([world.orgA1]).size &&
          idsOf(allOfA).size >= expected([world.orgA1, world.orgA2]).size &&
          idsOf(ofB).size >= expected([world.orgB1]).size,
        15_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));

      expect(idsOf(onlyA1)).toEqual(expected([world.orgA1]));
      expect(idsOf(allOfA)).toEqual(expected([world.orgA1, world.orgA2]));
      expect(idsOf(ofB)).toEqual(expected([world.orgB1]));
      for (const r of receivers) {
        for (const item of received(r))
          expect(Object.keys(item).sort()).toEqual(['actionType', 'id', 'resourceType', 'resourceUri', 'trcid']);
      }
    });

    it('when an item the token may not read changes (waiting for validation, token live-only), then the notification names it — the interface filters webhooks by organisation only (HOOK-008) — and its resourceUri answers 404 to that token', async () => {
      const [receiver] = receivers.length > 0 ? [receivers[0]!] : [await startReceiver()];
      const before = receiver.requests.length;
      const hidden = await createItem(h.app.baseUrl, world.tokens.admin, 'events', {
        userorganisation: world.orgA1,
        wfstatus: 'readyforvalidation',
      });
      const item = await waitFor(
        'the notification',
        () =>
          receiver.requests
            .slice(before)
            .flatMap(
              (q) =>
                (JSON.parse(q.body.toString('utf8')) as { items: Array<{ id: string; resourceUri: string }> }).items,
            )
            .find((i) => i.id.startsWith(hidden.id)),
        10_000,
      );
      const path = new URL(item.resourceUri).pathname.replace(/^\/api/, '');
      expect((await http.send({ method: 'GET', path, headers: as('live') })).status).toBe(404);
    });
  });
});
