import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  eventBody,
  newTestAccount,
  superAdminToken,
  type TestAccount,
} from '../../test/support/items/itemsHarness.ts';
import { specExample } from '../../test/support/items/responseSchemas.ts';
import { ALL_STATUSES, createTestToken } from '../../test/support/fixtures.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';
import { getItemById } from '../storage/items/getItemById.ts';
import type { ItemChange } from '../webhooks/itemChange.ts';

const STATUSES = ['readyforvalidation', 'approved', 'rejected', 'archived', 'deleted'] as const;

describeEachEngine('item writes', (ctx) => {
  let app: TestApp;
  let account: TestAccount;
  const changes: ItemChange[] = [];
  beforeAll(async () => {
    // A recording fake of the outbox seam: it must be called once per write, inside the write.
    app = await startTestApp(ctx.db, {
      env: { RATE_LIMIT_ENABLED: 'false' },
      deps: {
        recordItemChange: async (_tx, change) => {
          changes.push(change);
        },
      },
    });
    account = await newTestAccount(ctx.db, { organisations: 2 });
  });
  afterAll(() => app.close());
  const full = () => client(app.baseUrl, account.full);
  const changesOf = (itemId: string) => changes.filter((c) => c.itemId === itemId);

  describe('POST /{collection}', () => {
    it('when an event is created, then 201 with Location and the item exactly as a detail read returns it [DEC-ITEM-002] [WRITE-001] [ITEM-002] [ITEM-003] [ITEM-005] [ITEM-006]', async () => {
      const created = await full().post('/events', eventBody());
      expect(created.status).toBe(201);
      expect(created.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(created.headers.get('location')).toBe(`${app.config.publicBaseUrl}/events/${created.body.id}`);
      expect(created.body.trcid).toMatch(/^trc-[0-9a-f-]{36}$/);
      expect(created.body.creationdate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(created.body.lastupdated).toBe(created.body.creationdate);
      expect(created.body.userorganisation).toBe(account.organisations[0]);
      const read = await full().get(`/events/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created.body);
    });

    it('when an empty body is posted, then an item with only server fields is created [ITEM-021]', async () => {
      const created = await full().post('/locations', {});
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ entitytype: 'LOCATIE', wfstatus: 'readyforvalidation' });
    });

    it('when the body is not JSON or has no JSON content type, then 400 [DEC-ERR-003]', async () => {
      expect(
        (await full().call('POST', '/events', '{"trcItemDetails": [', { 'content-type': 'application/json' })).status,
      ).toBe(400);
      const plain = await full().call('POST', '/events', 'hello', { 'content-type': 'text/plain' });
      expect(plain.status).toBe(400);
      expect(plain.body.message).toContain('JSON body is required');
    });

    it('when no token is sent, then 401 with WWW-Authenticate [AUTH-002] [DEC-ERR-002]', async () => {
      const answer = await client(app.baseUrl).post('/events', eventBody());
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
    });
  });

  describe('workflow', () => {
    it('when a body has no wfstatus or draft, then it is stored as readyforvalidation [WF-007]', async () => {
      const none = await full().post('/events', eventBody());
      const draft = await full().post('/events', eventBody({ wfstatus: 'draft' }));
      expect(none.body.wfstatus).toBe('readyforvalidation');
      expect(draft.body.wfstatus).toBe('readyforvalidation');
      const put = await full().put(`/events/${none.body.id}`, { ...eventBody(), wfstatus: 'draft' });
      expect(put.body.wfstatus).toBe('readyforvalidation');
    });

    it('when a write sets approved, then the item is published, from any status [WF-009] [WF-003]', async () => {
      for (const from of STATUSES) {
        const created = await full().post('/events', eventBody({ wfstatus: from }));
        const approved = await full().put(`/events/${created.body.id}`, eventBody({ wfstatus: 'approved' }));
        expect(approved.status).toBe(200);
        expect(approved.body).toMatchObject({ wfstatus: 'approved', published: true, offline: false, deleted: false });
      }
    });

    it('when an approved item is written with another status or none, then it goes offline [WF-008]', async () => {
      for (const to of ['readyforvalidation', 'rejected', 'archived', undefined] as const) {
        const created = await full().post('/events', eventBody({ wfstatus: 'approved' }));
        const changed = await full().put(
          `/events/${created.body.id}`,
          eventBody(to === undefined ? {} : { wfstatus: to }),
        );
        expect(changed.body).toMatchObject({ wfstatus: to ?? 'readyforvalidation', published: false, offline: true });
      }
    });

    it('when an item is saved in any status with any booleans, then the booleans follow the interface table [WF-010] [WF-011] [WF-012] [WF-013] [ITEM-017]', async () => {
      for (const wfstatus of STATUSES) {
        for (const sent of [true, false]) {
          const body = eventBody({ wfstatus, published: sent, deleted: sent, offline: sent });
          const created = await full().post('/events', body);
          expect(created.status).toBe(201);
          const approved = wfstatus === 'approved';
          const expected = { wfstatus, published: approved, deleted: !approved, offline: !approved };
          expect(created.body).toMatchObject(expected);
          // The same from storage, through a list (a deleted item is not readable by id).
          const listed = await full().get(`/events?trcid=${created.body.trcid}&wfstatus=${wfstatus}`);
          expect(listed.body).toEqual([expect.objectContaining(expected)]);
        }
      }
    });

    it('when an unknown wfstatus is written, then 400 [WF-002]', async () => {
      const answer = await full().post('/events', eventBody({ wfstatus: 'published' }));
      expect(answer.status).toBe(400);
      expect(answer.body.message).toContain('wfstatus');
    });
  });

  describe('read-only and ignored fields', () => {
    it('when isprivate is sent, then it is dropped [ITEM-018] [DEC-ITEM-005]', async () => {
      const created = await full().post('/events', eventBody({ isprivate: true }));
      expect(created.status).toBe(201);
      expect(created.body).not.toHaveProperty('isprivate');
      expect((await full().get(`/events/${created.body.id}`)).body).not.toHaveProperty('isprivate');
    });

    it('when server fields are sent, then they are ignored [DEC-ITEM-005] [ITEM-005] [ITEM-006] [DEC-ITEM-020] [ITEM-010]', async () => {
      const id = randomUUID();
      const created = await full().post(
        '/events',
        eventBody({
          id,
          creationdate: '2001-01-01T00:00:00.000Z',
          lastupdated: '2001-01-01T00:00:00.000Z',
          externalId: 'feed:forged',
          seoMetadata: {
            seoDetails: [{ metaTitle: 'SEO' }],
            schemaOrgJsonLd: '{"@type":"Forged"}',
            schemaOrg: { '@type': 'Forged' },
          },
        }),
      );
      expect(created.status).toBe(201);
      expect(created.body.id).not.toBe(id);
      expect(created.body.creationdate).not.toBe('2001-01-01T00:00:00.000Z');
      expect(created.body.lastupdated).not.toBe('2001-01-01T00:00:00.000Z');
      expect(created.body).not.toHaveProperty('externalId');
      expect(created.body.seoMetadata).toEqual({
        seoDetails: [{ metaTitle: 'SEO' }],
        schemaOrgJsonLd: expect.any(String),
      });
      expect(JSON.parse(created.body.seoMetadata.schemaOrgJsonLd)).toEqual({
        '@context': 'https://schema.org',
        '@type': 'Event',
        name: expect.any(String),
        startDate: '2027-08-14T20:15:00+02:00',
        endDate: '2027-08-14T21:30:00+02:00',
        eventStatus: 'https://schema.org/EventScheduled',
      });
      const replaced = await full().put(`/events/${created.body.id}`, {
        ...created.body,
        creationdate: '2001-01-01T00:00:00.000Z',
        externalId: 'feed:forged',
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body.creationdate).toBe(created.body.creationdate);
      expect(replaced.body).not.toHaveProperty('externalId');
    });

    it('when two tokens write an item, then createdby names the first and lastupdatedby the last; sent values are ignored [DEC-ITEM-171] [DEC-ITEM-172]', async () => {
      const first = await createTestToken(ctx.db, { accountId: account.accountId, wfstatus: ALL_STATUSES });
      const second = await createTestToken(ctx.db, { accountId: account.accountId, wfstatus: ALL_STATUSES });
      const nameOf = (t: { id: string }) => `test ${t.id.slice(0, 8)}`;
      const forged = { createdby: 'mallory', lastupdatedby: 'mallory', lastimportedon: '2001-01-01T00:00:00.000Z' };
      const created = await client(app.baseUrl, first.token).post('/events', eventBody(forged));
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ createdby: nameOf(first), lastupdatedby: nameOf(first) });
      expect(created.body).not.toHaveProperty('lastimportedon');
      const replaced = await client(app.baseUrl, second.token).put(`/events/${created.body.id}`, {
        ...created.body,
        ...forged,
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ createdby: nameOf(first), lastupdatedby: nameOf(second) });
      expect((await full().get(`/events/${created.body.id}`)).body).toMatchObject({
        createdby: nameOf(first),
        lastupdatedby: nameOf(second),
      });
    });

    it("when the model's root strings and the sold-out flags are written, then they read back as written; a wrong type is 400 [DEC-ITEM-170] [DEC-ITEM-174]", async () => {
      const written = {
        owner: 'redactie@example.org',
        legalowner: 'Example BV',
        validator: 'example-org',
        cidn: '1234567',
        keywords: 'jazz, Klassiek',
        markers: 'old',
        availablefrom: '2027-01-01T00:00:00.000Z',
        availableto: '2027-12-31T23:59:59.000Z',
      };
      const body = eventBody(written);
      const created = await full().post('/events', {
        ...body,
        trcItemCategories: { ...(body.trcItemCategories as object), soldout: true, canceled: false },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject(written);
      expect(created.body.trcItemCategories).toMatchObject({ soldout: true, canceled: false });
      const read = await full().get(`/events/${created.body.id}`);
      expect(read.body).toMatchObject(written);
      expect(read.body.trcItemCategories).toMatchObject({ soldout: true, canceled: false });
      const wrong = await full().post('/events', {
        ...body,
        trcItemCategories: { ...(body.trcItemCategories as object), soldout: 'yes' },
      });
      expect(wrong.status).toBe(400);
      expect(JSON.stringify(wrong.body)).toContain('soldout');
      expect((await full().post('/events', eventBody({ keywords: ['jazz'] }))).status).toBe(400);
    });

    it('when an unknown field is sent, then 400 naming it [DEC-ITEM-005]', async () => {
      const answer = await full().post('/events', eventBody({ colour: 'red' }));
      expect(answer.status).toBe(400);
      expect(answer.body.message).toContain('colour');
    });
  });

  describe('trcid and userorganisation', () => {
    it('when a trcid is sent, then it is kept; when it is taken, then 409 [DEC-ITEM-006] [ITEM-003]', async () => {
      const trcid = `trc-test-${randomUUID()}`;
      const created = await full().post('/events', eventBody({ trcid }));
      expect(created.body.trcid).toBe(trcid);
      const again = await full().post('/locations', { trcid });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ status: 409, error: 'Conflict' });
      expect(again.body.message).toContain(trcid);
    });

    it('when PUT sends a different trcid, then 400; absent, then the stored one is kept [DEC-ITEM-006]', async () => {
      const created = await full().post('/events', eventBody());
      const changed = await full().put(`/events/${created.body.id}`, eventBody({ trcid: `trc-other-${randomUUID()}` }));
      expect(changed.status).toBe(400);
      const kept = await full().put(`/events/${created.body.id}`, eventBody());
      expect(kept.body.trcid).toBe(created.body.trcid);
    });

    it("when userorganisation is another of the account's organisations, then it is stored; a foreign one is 403 [DEC-ITEM-007]", async () => {
      const second = await full().post('/events', eventBody({ userorganisation: account.organisations[1] }));
      expect(second.body.userorganisation).toBe(account.organisations[1]);
      const other = await newTestAccount(ctx.db);
      const foreign = await full().post('/events', eventBody({ userorganisation: other.organisations[0] }));
      expect(foreign.status).toBe(403);
      expect(foreign.body.message).toContain(other.organisations[0]);
    });

    it('when a super admin writes a known organisation, then it is stored; an unknown one is 400 [DEC-ITEM-007] [AUTH-006]', async () => {
      const admin = client(app.baseUrl, await superAdminToken(ctx.db, account.accountId));
      const other = await newTestAccount(ctx.db);
      const known = await admin.post('/events', eventBody({ userorganisation: other.organisations[0] }));
      expect(known.status).toBe(201);
      expect(known.body.userorganisation).toBe(other.organisations[0]);
      const unknown = await admin.post('/events', eventBody({ userorganisation: `nobody-${randomUUID()}` }));
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toContain('not a known organisation');
    });
  });

  describe('entity rules', () => {
    it('when a location carries an event-only field, then 400 naming the field [DEC-ITEM-015] [ITEM-024]', async () => {
      for (const [field, value] of [
        ['priceElements', [{ from: 1, till: 2 }]],
        ['promotions', [{ title: 'x' }]],
        ['performers', [{ label: 'x' }]],
      ] as const) {
        const answer = await full().post('/locations', { [field]: value });
        expect(answer.status).toBe(400);
        expect(answer.body.message).toContain(field);
      }
    });

    it('when a venue carries venueCapacity, an event routeInfo or eventLinks, then 400 naming the field [DEC-ITEM-015] [ITEM-014] [DEC-ITEM-150]', async () => {
      const venueField = await full().post('/venues', { venueCapacity: { totalCapacity: 10 } });
      expect(venueField.status).toBe(400);
      expect(venueField.body.message).toContain('venueCapacity');
      const routeField = await full().post('/events', eventBody({ routeInfo: { routeType: 'walking' } }));
      expect(routeField.status).toBe(400);
      expect(routeField.body.message).toContain('routeInfo');
      const groupField = await full().post('/events', eventBody({ eventLinks: [{ eventId: 'trc-x' }] }));
      expect(groupField.status).toBe(400);
      expect(groupField.body.message).toContain('eventLinks');
    });

    it('when a route point holds its latitude as a string, then the 400 of the spec example RouteInvalidWaypoint [DEC-ITEM-016]', async () => {
      const points = [0, 1, 2, 3].map((i) => ({ lat: 52.1 + i / 100, lng: 5.1 }));
      const answer = await full().post('/routes', {
        routeInfo: { routeCoordinates: [...points, { lat: '52,174', lng: 5.001 }] },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(specExample('RouteInvalidWaypoint'));
    });

    it('when a location links with child, then 400; alias and comment pass [ITEM-024] [DEC-ITEM-013]', async () => {
      const child = await full().post('/locations', {
        trcitemRelation: { links: [{ linkType: 'child', trcid: 'trc-x' }] },
      });
      expect(child.status).toBe(400);
      expect(child.body.message).toContain('linkType');
      const alias = await full().post('/locations', {
        trcitemRelation: {
          links: [
            { linkType: 'alias', trcid: 'trc-x' },
            { linkType: 'comment', trcid: 'trc-y' },
          ],
        },
      });
      expect(alias.status).toBe(201);
    });

    it('when a body names another entitytype, then 400 [DEC-ITEM-008] [ITEM-028]', async () => {
      const answer = await full().post('/venues', { entitytype: 'LOCATIE' });
      expect(answer.status).toBe(400);
    });

    it('when EVENEMENTGROEP is written to /eventgroups, then it is stored as EVENTGROUP [VER-002] [DEC-ITEM-008]', async () => {
      const created = await full().post('/eventgroups', {
        entitytype: 'EVENEMENTGROEP',
        trcItemDetails: [{ lang: 'nl', title: 'Festival' }],
      });
      expect(created.status).toBe(201);
      expect(created.body.entitytype).toBe('EVENTGROUP');
      const put = await full().put(`/eventgroups/${created.body.id}`, { entitytype: 'EVENEMENTGROEP' });
      expect(put.body.entitytype).toBe('EVENTGROUP');
    });

    it('when a venue has capacity properties and rooms, then they are stored as ids and values and returned labelled [ITEM-025] [DEC-ITEM-150] [DEC-ITEM-151]', async () => {
      const created = await full().post('/venues', {
        translations: { primaryLanguage: 'nl', availableLanguages: ['nl', 'en'] },
        trcItemCategories: { categories: [{ catid: 'p-1501', value: '2400', datatype: 'freetext' }] },
        trcitemRelation: {
          subItemGroups: [
            {
              trcid: 'trc-zaal',
              type: { catid: '2.8.1', categoryTranslations: [{ lang: 'nl', label: 'Fout' }] },
              subItemTranslations: [{ lang: 'nl', title: 'Ronde Zaal' }],
              categories: [
                { catid: 'p-1505', value: '540', categoryTranslations: [{ lang: 'nl', label: 'Fout' }] },
                { catid: 'p-1601', value: '350' },
              ],
            },
            { subItemTranslations: [{ lang: 'en', title: 'Foyer' }] },
          ],
        },
      });
      expect(created.status).toBe(201);
      const labels = (nl: string, en: string) => [
        { lang: 'nl', label: nl },
        { lang: 'en', label: en },
      ];
      expect(created.body.trcItemCategories.categories).toEqual([
        {
          catid: 'p-1501',
          datatype: 'integer',
          value: '2400',
          categoryTranslations: labels('Totale capaciteit', 'Total capacity'),
        },
      ]);
      expect(created.body.trcitemRelation.subItemGroups).toEqual([
        {
          trcid: 'trc-zaal',
          type: {
            catid: '2.8.1',
            isDefault: false,
            categoryTranslations: labels('Congrescentrum', 'Conference centre'),
          },
          subItemTranslations: [{ lang: 'nl', title: 'Ronde Zaal' }],
          categories: [
            {
              catid: 'p-1505',
              datatype: 'decimal',
              value: '540',
              categoryTranslations: labels('Oppervlakte in m²', 'Floor area in m²'),
            },
            {
              catid: 'p-1601',
              datatype: 'integer',
              value: '350',
              categoryTranslations: labels('Theateropstelling', 'Theatre setup'),
            },
          ],
        },
        { subItemTranslations: [{ lang: 'en', title: 'Foyer' }] },
      ]);
      expect(JSON.parse(created.body.seoMetadata.schemaOrgJsonLd).maximumAttendeeCapacity).toBe(2400);
      const stored = await getItemById(ctx.db, { entitytype: 'VENUE', id: created.body.id });
      expect((stored!.doc.trcitemRelation as { subItemGroups: unknown[] }).subItemGroups[0]).toEqual({
        trcid: 'trc-zaal',
        type: { catid: '2.8.1', isDefault: false },
        subItemTranslations: [{ lang: 'nl', title: 'Ronde Zaal' }],
        categories: [
          { catid: 'p-1505', value: '540' },
          { catid: 'p-1601', value: '350' },
        ],
      });
    });

    it('when an event group links events as children, then eventLinks name them, and eventLinks sent are ignored [ITEM-026] [DEC-ITEM-152]', async () => {
      const group = await full().post('/eventgroups', {
        eventLinks: [{ eventId: 'trc-ignored' }],
        trcitemRelation: {
          links: [
            { linkType: 'child', trcid: 'trc-concert-1' },
            { linkType: 'related', trcid: 'trc-elsewhere' },
            { linkType: 'child', trcid: 'trc-concert-2' },
          ],
        },
      });
      expect(group.status).toBe(201);
      expect(group.body.eventLinks).toEqual([{ eventId: 'trc-concert-1' }, { eventId: 'trc-concert-2' }]);
      const read = await full().get(`/eventgroups/${group.body.id}`);
      expect(read.body.eventLinks).toEqual(group.body.eventLinks);
      const emptied = await full().put(`/eventgroups/${group.body.id}`, {
        ...read.body,
        trcitemRelation: { links: [] },
      });
      expect(emptied.status).toBe(200);
      expect(emptied.body).not.toHaveProperty('eventLinks');
    });

    it('when a calendar has a bad calendarType or time, then 400 [DEC-ITEM-011] [DEC-ITEM-023]', async () => {
      expect((await full().post('/events', { calendar: { calendarType: 'SOMETIMES' } })).status).toBe(400);
      expect(
        (
          await full().post('/events', {
            calendar: { singleDates: [{ date: '2027-08-14', when: [{ timestart: '25:00' }] }] },
          })
        ).status,
      ).toBe(400);
    });
  });

  describe('PUT /{collection}/{id}', () => {
    it('when an item is replaced, then absent fields are removed and creationdate kept [DEC-ITEM-001] [WRITE-002]', async () => {
      const created = await full().post(
        '/events',
        eventBody({ performers: [{ label: 'Sanne de Vries' }], slug: 'concert' }),
      );
      const replaced = await full().put(`/events/${created.body.id}`, {
        trcItemDetails: [{ lang: 'en', title: 'Replaced' }],
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body).not.toHaveProperty('performers');
      expect(replaced.body).not.toHaveProperty('slug');
      expect(replaced.body).not.toHaveProperty('calendar');
      expect(replaced.body.trcItemDetails).toEqual([{ lang: 'en', title: 'Replaced' }]);
      expect(replaced.body.creationdate).toBe(created.body.creationdate);
      expect(Date.parse(replaced.body.lastupdated)).toBeGreaterThan(Date.parse(created.body.lastupdated));
      expect((await full().get(`/events/${created.body.id}`)).body).toEqual(replaced.body);
    });

    it('when the item is in another collection, another account or does not exist, then 404 [DEC-ITEM-004] [DEC-ERR-002] [ITEM-028]', async () => {
      const created = await full().post('/events', eventBody());
      expect((await full().put(`/locations/${created.body.id}`, {})).status).toBe(404);
      expect((await full().put(`/events/${randomUUID()}`, {})).status).toBe(404);
      const other = await newTestAccount(ctx.db);
      expect((await client(app.baseUrl, other.full).put(`/events/${created.body.id}`, {})).status).toBe(404);
    });

    it('when the id is not a UUID, then 400 [DEC-MISC-002]', async () => {
      const answer = await full().put('/events/not-a-uuid', {});
      expect(answer.status).toBe(400);
    });

    it('when a live-only token puts an item it cannot see, then 404 [AUTH-004] [AUTH-005]', async () => {
      const created = await full().post('/events', eventBody());
      expect(
        (await client(app.baseUrl, account.live).put(`/events/${created.body.id}`, eventBody({ wfstatus: 'approved' })))
          .status,
      ).toBe(404);
    });

    it('when a deleted item is put by a token that sees deleted items, then it is restored; otherwise 404 [DEC-ITEM-004]', async () => {
      const created = await full().post('/events', eventBody({ wfstatus: 'approved' }));
      expect((await full().delete(`/events/${created.body.id}`)).status).toBe(204);
      expect(
        (await client(app.baseUrl, account.live).put(`/events/${created.body.id}`, eventBody({ wfstatus: 'approved' })))
          .status,
      ).toBe(404);
      const restored = await full().put(`/events/${created.body.id}`, eventBody({ wfstatus: 'approved' }));
      expect(restored.status).toBe(200);
      expect((await full().get(`/events/${created.body.id}`)).body.wfstatus).toBe('approved');
    });
  });

  describe('DELETE /{collection}/{id}', () => {
    it('when an item is deleted, then 204, the detail read is 404 and a full token lists it with wfstatus=deleted [DEC-ITEM-003] [DEC-ITEM-004] [WF-004]', async () => {
      const created = await full().post('/events', eventBody({ wfstatus: 'approved' }));
      const deleted = await full().delete(`/events/${created.body.id}`);
      expect(deleted.status).toBe(204);
      expect(deleted.body).toBeUndefined();
      expect((await full().get(`/events/${created.body.id}`)).status).toBe(404);
      expect((await full().get(`/events?trcid=${created.body.trcid}`)).body).toEqual([]);
      const listed = await full().get(`/events?trcid=${created.body.trcid}&wfstatus=deleted`);
      expect(listed.body).toEqual([
        expect.objectContaining({ id: created.body.id, wfstatus: 'deleted', published: false, deleted: true }),
      ]);
      expect(Date.parse(listed.body[0].lastupdated)).toBeGreaterThan(Date.parse(created.body.lastupdated));
      expect((await full().delete(`/events/${created.body.id}`)).status).toBe(404);
    });

    it('when PUT writes wfstatus deleted, then it is the same soft delete [DEC-ITEM-003]', async () => {
      const created = await full().post('/routes', { wfstatus: 'approved' });
      const put = await full().put(`/routes/${created.body.id}`, { wfstatus: 'deleted' });
      expect(put.status).toBe(200);
      expect((await full().get(`/routes/${created.body.id}`)).status).toBe(404);
    });

    it('when another account deletes the item, then 404 and nothing changes [DEC-ERR-002]', async () => {
      const created = await full().post('/venues', { wfstatus: 'approved' });
      const other = await newTestAccount(ctx.db);
      expect((await client(app.baseUrl, other.full).delete(`/venues/${created.body.id}`)).status).toBe(404);
      expect((await full().get(`/venues/${created.body.id}`)).body.wfstatus).toBe('approved');
    });
  });

  describe('change recording', () => {
    it('when items are created, replaced, archived and deleted, then one change is recorded per write with its action [DEC-HOOK-003] [HOOK-006]', async () => {
      const created = await full().post('/events', eventBody());
      const id = created.body.id as string;
      await full().put(`/events/${id}`, eventBody({ wfstatus: 'approved' }));
      await full().put(`/events/${id}`, eventBody({ wfstatus: 'archived' }));
      await full().put(`/events/${id}`, eventBody({ wfstatus: 'rejected' }));
      await full().delete(`/events/${id}`);
      const base = {
        itemId: id,
        trcid: created.body.trcid,
        entitytype: 'EVENEMENT',
        userorganisation: account.organisations[0],
      };
      expect(changesOf(id)).toEqual(
        ['UPDATED', 'UPDATED', 'DELETED', 'UPDATED', 'DELETED'].map((action) => ({ ...base, action })),
      );
    });

    it('when a write fails, then no change is recorded', async () => {
      const trcid = `trc-dup-${randomUUID()}`;
      const first = await full().post('/events', eventBody({ trcid }));
      const before = changes.length;
      expect((await full().post('/events', eventBody({ trcid }))).status).toBe(409);
      expect((await full().put(`/events/${first.body.id}`, eventBody({ routeInfo: {} }))).status).toBe(400);
      expect(changes.length).toBe(before);
    });
  });
});

describeEachEngine('item writes with a failing outbox', (ctx) => {
  let app: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    app = await startTestApp(ctx.db, {
      deps: {
        recordItemChange: async () => {
          throw new Error('outbox down');
        },
      },
    });
    account = await newTestAccount(ctx.db);
  });
  afterAll(() => app.close());

  it('when recording the change fails, then the write is rolled back: the outbox event and the item commit together [DEC-HOOK-003]', async () => {
    const trcid = `trc-rollback-${randomUUID()}`;
    const answer = await client(app.baseUrl, account.full).post('/events', eventBody({ trcid }));
    expect(answer.status).toBe(500);
    expect(
      (await client(app.baseUrl, account.full).get(`/events?trcid=${trcid}&wfstatus=readyforvalidation`)).body,
    ).toEqual([]);
  });
});
