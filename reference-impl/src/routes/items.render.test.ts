import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBaseOntologies } from '../dictionary/loadData.ts';
import { responseProblems, specExample } from '../../test/support/items/responseSchemas.ts';
import { client, newTestAccount, superAdminToken, type TestAccount } from '../../test/support/items/itemsHarness.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';

const COLLECTIONS = [
  {
    collection: 'events',
    entitytype: 'EVENEMENT',
    draft: 'EventGrachtenfestivalDraft',
    ops: { list: 'listEvents', create: 'createEvent', get: 'getEvent', update: 'updateEvent' },
  },
  {
    collection: 'locations',
    entitytype: 'LOCATIE',
    draft: 'LocationRijksmuseumDraft',
    ops: { list: 'listLocations', create: 'createLocation', get: 'getLocation', update: 'updateLocation' },
  },
  {
    collection: 'venues',
    entitytype: 'VENUE',
    draft: 'VenueJaarbeursDraft',
    ops: { list: 'listVenues', create: 'createVenue', get: 'getVenue', update: 'updateVenue' },
  },
  {
    collection: 'eventgroups',
    entitytype: 'EVENTGROUP',
    draft: 'EventGroupGrachtenfestivalDraft',
    ops: { list: 'listEventGroups', create: 'createEventGroup', get: 'getEventGroup', update: 'updateEventGroup' },
  },
  {
    collection: 'routes',
    entitytype: 'ROUTE',
    draft: 'RouteVechtDraft',
    ops: { list: 'listRoutes', create: 'createRoute', get: 'getRoute', update: 'updateRoute' },
  },
] as const;

/** A property ontology with one yesno and one choice property, labels in nl and en. */
function ownOntology(label: string) {
  return {
    propertyCategories: [
      {
        id: 'pc-9001',
        name: 'Eigen',
        datatype: 'yes',
        propertytranslations: [{ lang: 'nl', text: 'Eigen' }],
        properties: [
          {
            id: 'p-1001',
            name: label,
            datatype: 'yesno',
            propertytranslations: [
              { lang: 'nl', text: label },
              { lang: 'en', text: `${label} (en)` },
            ],
          },
          {
            id: 'p-9002',
            name: 'Seizoen',
            datatype: 'choice',
            propertytranslations: [{ lang: 'nl', text: 'Seizoen' }],
            options: [
              {
                id: 'o-9001',
                name: 'Zomer',
                propertytranslations: [
                  { lang: 'nl', text: 'Zomer' },
                  { lang: 'en', text: 'Summer' },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
}

describeEachEngine('item rendering', (ctx) => {
  let app: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    account = await newTestAccount(ctx.db);
  });
  afterAll(() => app.close());

  describe('against the spec', () => {
    it("when the spec's example of every entity type is written in every status, then every answer validates against the response schema [ITEM-001] [ITEM-003] [ITEM-004] [ITEM-005] [LIST-001] [DEC-ITEM-002]", async () => {
      const api = client(app.baseUrl, account.full);
      for (const { collection, entitytype, draft, ops } of COLLECTIONS) {
        for (const wfstatus of ['draft', 'readyforvalidation', 'approved', 'rejected', 'archived', 'deleted']) {
          const body = {
            ...specExample<Record<string, unknown>>(draft),
            trcid: `trc-${collection}-${randomUUID()}`,
            userorganisation: account.organisations[0],
            wfstatus,
          };
          const created = await api.post(`/${collection}`, body);
          expect(created.status, `${collection} ${wfstatus}: ${JSON.stringify(created.body)}`).toBe(201);
          expect(created.body.entitytype).toBe(entitytype);
          expect(responseProblems(ops.create, 201, created.body), `${collection} ${wfstatus}`).toEqual([]);
          const listed = await api.get(`/${collection}?trcid=${body.trcid}&wfstatus=${created.body.wfstatus}`);
          expect(listed.body).toHaveLength(1);
          expect(responseProblems(ops.list, 200, listed.body), `${collection} ${wfstatus}`).toEqual([]);
          if (wfstatus !== 'deleted') {
            const read = await api.get(`/${collection}/${created.body.id}`);
            expect(responseProblems(ops.get, 200, read.body), `${collection} ${wfstatus}`).toEqual([]);
            // A GET-modify-PUT round trip works: read-only fields in the body are ignored (DEC-ITEM-005).
            const replaced = await api.put(`/${collection}/${created.body.id}`, read.body);
            expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
            expect(responseProblems(ops.update, 200, replaced.body)).toEqual([]);
            expect({ ...replaced.body, lastupdated: undefined }).toEqual({ ...read.body, lastupdated: undefined });
          }
        }
      }
    });

    it("when the spec's legacy EVENEMENTGROEP example is written, then the answer is an EVENTGROUP valid against the schema [VER-002]", async () => {
      const api = client(app.baseUrl, account.full);
      const created = await api.post('/eventgroups', {
        ...specExample<Record<string, unknown>>('EventGroupLegacyEntitytypeDraft'),
        userorganisation: account.organisations[0],
      });
      expect(created.status).toBe(201);
      expect(created.body.entitytype).toBe('EVENTGROUP');
      expect(responseProblems('createEventGroup', 201, created.body)).toEqual([]);
    });

    it("when the event example is created, then the answer matches the spec's created example but for server values [DEC-ITEM-002] [ITEM-020] [DEC-ITEM-011] [ITEM-010]", async () => {
      const api = client(app.baseUrl, account.full);
      const created = await api.post('/events', {
        ...specExample<Record<string, unknown>>('EventGrachtenfestivalDraft'),
        trcid: `trc-${randomUUID()}`,
        userorganisation: account.organisations[0],
      });
      const expected = specExample<Record<string, any>>('EventGrachtenfestivalCreated');
      const serverValues = {
        id: created.body.id,
        trcid: created.body.trcid,
        userorganisation: created.body.userorganisation,
        creationdate: created.body.creationdate,
        lastupdated: created.body.lastupdated,
        // The writer's name: here a test token's (DEC-ITEM-171).
        createdby: created.body.createdby,
        lastupdatedby: created.body.lastupdatedby,
      };
      // The example's place has a name (Westerkerk) that nothing in the item states; all else is derived.
      const schemaOrg = JSON.parse(expected.seoMetadata.schemaOrgJsonLd);
      delete schemaOrg.location.name;
      const { schemaOrgJsonLd, ...seoMetadata } = created.body.seoMetadata;
      expect(JSON.parse(schemaOrgJsonLd)).toEqual(schemaOrg);
      expect({ ...created.body, seoMetadata }).toEqual({
        ...expected,
        ...serverValues,
        seoMetadata: { ...expected.seoMetadata, schemaOrgJsonLd: undefined },
      });
    });
    it("when the venue and route drafts are created, then their categories, relations and routeInfo are the spec's created examples': capacity and rooms as labelled categories, routeInfo as written [ITEM-025] [ITEM-027] [DEC-ITEM-016] [DEC-ITEM-150] [DEC-ITEM-151]", async () => {
      const api = client(app.baseUrl, account.full);
      for (const [collection, draft, expectedName] of [
        ['venues', 'VenueJaarbeursDraft', 'VenueJaarbeursCreated'],
        ['routes', 'RouteVechtDraft', 'RouteVechtCreated'],
      ] as const) {
        const trcid = `trc-${randomUUID()}`;
        const created = await api.post(`/${collection}`, {
          ...specExample<Record<string, unknown>>(draft),
          trcid,
          slug: trcid,
          userorganisation: account.organisations[0],
        });
        expect(created.status).toBe(201);
        const expected = specExample<Record<string, any>>(expectedName);
        for (const field of ['routeInfo', 'trcItemCategories', 'trcitemRelation'])
          expect(created.body[field], `${collection}.${field}`).toEqual(expected[field]);
      }
    });
    it("when each entity type's example is created, then its schema.org object is derived as the spec's created example shows [ITEM-010]", async () => {
      const api = client(app.baseUrl, account.full);
      const created = {
        events: 'EventGrachtenfestivalCreated',
        locations: 'LocationRijksmuseumCreated',
        venues: 'VenueJaarbeursCreated',
        eventgroups: 'EventGroupGrachtenfestivalCreated',
        routes: 'RouteVechtCreated',
      } as const;
      for (const { collection, draft } of COLLECTIONS) {
        const answer = await api.post(`/${collection}`, {
          ...specExample<Record<string, unknown>>(draft),
          trcid: `trc-${randomUUID()}`,
          userorganisation: account.organisations[0],
        });
        const expected = JSON.parse(specExample<Record<string, any>>(created[collection]).seoMetadata.schemaOrgJsonLd);
        // What the examples state beyond the item (a place's name, a festival's dates from its events) is not derived.
        if (collection === 'events') delete expected.location.name;
        // …and the group's own location, which the example leaves out, is said.
        if (collection === 'eventgroups') {
          delete expected.startDate;
          delete expected.endDate;
          expected.location = {
            '@type': 'Place',
            address: { '@type': 'PostalAddress', addressLocality: 'Amsterdam', addressCountry: 'NL' },
          };
        }
        expect(JSON.parse(answer.body.seoMetadata.schemaOrgJsonLd), collection).toEqual(expected);
      }
    });
  });

  describe("categories from the owner's ontology", () => {
    it("when an item is written with labels, then they are ignored and the base ontology's labels are filled in for the item's languages [ONTO-001] [ONTO-002] [ONTO-003] [ONTO-004] [ONTO-005] [DEC-DICT-006] [DT-002] [DT-004] [DT-005]", async () => {
      const api = client(app.baseUrl, account.full);
      const created = await api.post('/events', {
        translations: { primaryLanguage: 'nl', availableLanguages: ['nl', 'de'] },
        trcItemCategories: {
          types: [{ catid: '1.1.1', isDefault: true, categoryTranslations: [{ lang: 'nl', label: 'Verzonnen' }] }],
          categories: [
            {
              catid: 'p-1001',
              value: 'ja',
              datatype: 'freetext',
              categoryTranslations: [{ lang: 'nl', label: 'Fout', value: 'nee' }],
            },
            { catid: 'p-1201', valueid: 'o-2203', valueCategoryTranslations: [{ lang: 'nl', label: 'Fout' }] },
            { catid: 'p-1004', categoryvalues: [{ catid: 'o-2001' }, { catid: 'o-2002' }] },
          ],
        },
      });
      expect(created.status).toBe(201);
      const { types, categories } = (await api.get(`/events/${created.body.id}`)).body.trcItemCategories;
      const base = loadBaseOntologies();
      expect(types).toEqual([
        {
          catid: '1.1.1',
          isDefault: true,
          categoryTranslations: [
            { lang: 'nl', label: 'Klassieke muziek' },
            { lang: 'de', label: expect.any(String) },
          ],
        },
      ]);
      expect(types[0].categoryTranslations[1].label).not.toBe('Klassieke muziek');
      expect(categories[0]).toMatchObject({ catid: 'p-1001', datatype: 'yesno', value: 'True' });
      expect(categories[0].categoryTranslations.map((t: any) => t.lang)).toEqual(['nl', 'de']);
      expect(categories[0].categoryTranslations[0].value).toBeUndefined();
      expect(categories[1]).toMatchObject({
        catid: 'p-1201',
        datatype: 'choice',
        value: 'Volwassenen',
        valueid: 'o-2203',
      });
      expect(categories[1].valueCategoryTranslations[0]).toEqual({ lang: 'nl', label: 'Volwassenen' });
      expect(categories[2]).toMatchObject({ catid: 'p-1004', datatype: 'multichoice' });
      expect(categories[2].value.split(';')).toHaveLength(2);
      expect(categories[2].categoryvalues.map((v: any) => v.catid)).toEqual(['o-2001', 'o-2002']);
      expect(base.properties.propertyCategories.length).toBeGreaterThan(0);
    });

    it('when a catid is unknown to the ontology, then it comes back without translations [ONTO-007]', async () => {
      const api = client(app.baseUrl, account.full);
      const created = await api.post('/events', {
        trcItemCategories: {
          types: [{ catid: '9.9.9', isDefault: true }],
          categories: [{ catid: 'p-none', value: 'x' }],
        },
      });
      expect(created.body.trcItemCategories).toEqual({
        types: [{ catid: '9.9.9', isDefault: true }],
        categories: [{ catid: 'p-none', value: 'x' }],
      });
    });

    it("when the owner's property ontology is renamed with PUT, then existing items show the new label at once, also to another account's reader [ONTO-006] [ONTO-008] [ONTO-015] [ONTO-017]", async () => {
      const owner = await newTestAccount(ctx.db);
      const api = client(app.baseUrl, owner.full);
      const item = (
        await api.post('/events', {
          wfstatus: 'approved',
          translations: { primaryLanguage: 'nl', availableLanguages: ['nl', 'en'] },
          trcItemCategories: {
            categories: [
              { catid: 'p-1001', value: 'true' },
              { catid: 'p-9002', valueid: 'o-9001' },
            ],
          },
        })
      ).body;
      // Base: p-9002 is not in the base ontology.
      expect(item.trcItemCategories.categories[1]).toEqual({ catid: 'p-9002', valueid: 'o-9001' });

      const put = await client(app.baseUrl, owner.admin).put(
        `/dictionary/propertiesOntology?accountId=${owner.accountId}`,
        ownOntology('Toegankelijk'),
      );
      expect(put.status).toBe(200);
      const reader = client(app.baseUrl, await superAdminToken(ctx.db, (await newTestAccount(ctx.db)).accountId));
      const first = (await reader.get(`/events/${item.id}`)).body.trcItemCategories.categories;
      expect(first[0].categoryTranslations).toEqual([
        { lang: 'nl', label: 'Toegankelijk' },
        { lang: 'en', label: 'Toegankelijk (en)' },
      ]);
      expect(first[1]).toMatchObject({
        datatype: 'choice',
        value: 'Zomer',
        valueCategoryTranslations: [
          { lang: 'nl', label: 'Zomer' },
          { lang: 'en', label: 'Summer' },
        ],
      });

      await client(app.baseUrl, owner.admin).put(
        `/dictionary/propertiesOntology?accountId=${owner.accountId}`,
        ownOntology('Rolstoelvriendelijk'),
      );
      const listed = (await reader.get(`/events?trcid=${item.trcid}`)).body[0].trcItemCategories.categories;
      expect(listed[0].categoryTranslations[0]).toEqual({ lang: 'nl', label: 'Rolstoelvriendelijk' });
      // Another account's items still use the base ontology (the caller's ontology never counts).
      const other = (
        await client(app.baseUrl, account.full).post('/events', {
          trcItemCategories: { categories: [{ catid: 'p-1001', value: 'true' }] },
        })
      ).body;
      expect(other.trcItemCategories.categories[0].categoryTranslations[0].label).toBe('Rolstoeltoegankelijk');
    });

    it('when a freetext category has per-language values, then they are kept; translations of other datatypes are dropped [DEC-ITEM-018] [DT-006] [DT-011]', async () => {
      const api = client(app.baseUrl, account.full);
      const created = await api.post('/events', {
        translations: { primaryLanguage: 'nl', availableLanguages: ['nl', 'en'] },
        trcItemCategories: {
          categories: [
            {
              catid: 'p-1206',
              value: 'Niet verwarmd',
              categoryTranslations: [
                { lang: 'nl', value: 'Niet verwarmd' },
                { lang: 'en', value: 'Not heated' },
              ],
            },
            { catid: 'p-1203', value: '1.25', categoryTranslations: [{ lang: 'en', value: 'one and a quarter' }] },
          ],
        },
      });
      const [freetext, decimal] = created.body.trcItemCategories.categories;
      expect(freetext.categoryTranslations.map((t: any) => t.value)).toEqual(['Niet verwarmd', 'Not heated']);
      expect(decimal.categoryTranslations.every((t: any) => t.value === undefined)).toBe(true);
    });
  });
});
