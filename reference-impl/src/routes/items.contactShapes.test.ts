import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newTestAccount, type TestAccount } from '../../test/support/items/itemsHarness.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';

// Writes of contact details, urls, files and locations in the operator's model's shape, and of
// the forms before it: the interface's coordinates on `location` are moved, the others are a 400
// naming what to send instead (DEC-ITEM-160 … DEC-ITEM-164).

describeEachEngine('item writes: contact details, urls, files and locations', (ctx) => {
  let app: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    account = await newTestAccount(ctx.db);
  });
  afterAll(() => app.close());
  const full = () => client(app.baseUrl, account.full);

  describe('POST /locations', () => {
    it("when a location is written in the model's shape, then every field is returned as written [DEC-ITEM-160] [DEC-ITEM-161] [DEC-ITEM-162] [DEC-ITEM-163] [DEC-ITEM-164]", async () => {
      const address = {
        main: true,
        reservation: false,
        title: 'Rijksmuseum',
        street: 'Museumstraat',
        streettrcid: 'street-1',
        housenr: '1',
        zipcode: '1071 XX',
        city: 'Amsterdam',
        citytrcid: 'city-0363',
        neighbourhood: 'Museumkwartier',
        district: 'Zuid',
        province: 'Noord-Holland',
        country: 'NL',
        gisCoordinates: [{ xcoordinate: '4.885278', ycoordinate: '52.359997', label: 'Hoofdingang' }],
      };
      const body = {
        locationRef: 'trc-elders',
        contactinfo: {
          label: 'Kassa',
          mail: {
            email: 'kassa@example.nl',
            descriptioncode: 'reservations',
            reservations: true,
            descriptionTranslations: [{ lang: 'en', label: 'Box office' }],
          },
          phone: { number: '+31 20 000 0000', reservations: false },
          fax: { number: '+31 20 000 0001' },
          address: { city: 'Amsterdam' },
          urls: [
            {
              url: 'https://example.nl/en/tickets',
              urlServiceType: 'booking',
              targetLanguage: 'en',
              reservations: true,
              descriptionTranslations: [{ lang: 'nl', label: 'Kaarten' }],
            },
            { url: 'https://example.nl/', urlServiceType: 'travelbase' },
          ],
          mails: [{ email: 'info@example.nl' }],
        },
        files: [
          {
            trcid: 'trc-file-1',
            hlink: 'https://example.nl/route.gpx',
            filename: 'route.gpx',
            filetype: 'gpx',
            mediatype: 'roadmap',
            copyright: 'Gemeente Amsterdam',
            targetLanguage: 'nl',
            title: { label: 'Route', titleTranslations: [{ lang: 'en', label: 'Route' }] },
          },
        ],
        location: {
          address,
          label: 'Museumplein',
          locationItem: { id: 'x', trcid: 'trc-elders', text: 'Elders' },
          venueItem: { trcid: 'trc-zaal' },
        },
      };
      const created = await full().post('/locations', body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject(body);
      expect(created.body.seoMetadata.schemaOrgJsonLd).toContain(
        '"geo":{"@type":"GeoCoordinates","latitude":52.359997',
      );
    });

    it("when location carries the interface's xcoordinate and ycoordinate, then they are answered as address.gisCoordinates[0] [DEC-ITEM-163] [ITEM-008]", async () => {
      const created = await full().post('/locations', {
        location: { address: { city: 'Delft' }, xcoordinate: '4.3571', ycoordinate: '52.0116' },
      });
      expect(created.status).toBe(201);
      expect(created.body.location).toEqual({
        address: { city: 'Delft', gisCoordinates: [{ xcoordinate: '4.3571', ycoordinate: '52.0116' }] },
      });
      const read = await full().get(`/locations/${created.body.id}`);
      expect(read.body.location).toEqual(created.body.location);
    });

    it('when location.xcoordinate differs from the first point sent, then 400 naming both [DEC-ITEM-163]', async () => {
      const res = await full().post('/locations', {
        location: { xcoordinate: '4.3', address: { gisCoordinates: [{ xcoordinate: '4.4' }] } },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('address/gisCoordinates/0/xcoordinate');
    });

    it('when the forms before the model are written, then 400 naming what to send instead [DEC-ITEM-160] [DEC-ITEM-161] [DEC-ITEM-162]', async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ contactinfo: { mail: [{ email: 'a@example.nl' }] } }, '/contactinfo/mail', 'mails'],
        [
          { contactinfo: { urls: [{ url: 'https://example.nl/', urlServiceType: 'tickets' }] } },
          '/contactinfo/urls/0/urlServiceType',
          'booking',
        ],
        [{ files: [{ hlink: 'https://example.nl/a.jpg', title: 'Gevel' }] }, '/files/0/title', 'title.label'],
      ];
      for (const [body, pointer, replacement] of cases) {
        const res = await full().post('/locations', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        const detail = (res.body.details as { pointer: string; message: string }[]).find(
          (d) => d.pointer === pointer && d.message.includes(replacement),
        );
        expect(detail, JSON.stringify(res.body)).toBeDefined();
      }
    });

    it("when a file type or media type outside the model's values is written, then 400 listing the values [DEC-ITEM-162]", async () => {
      for (const file of [{ filetype: 'svg' }, { mediatype: 'document' }]) {
        const res = await full().post('/locations', { files: [{ hlink: 'https://example.nl/a', ...file }] });
        expect(res.status).toBe(400);
        expect(res.body.message).toContain('must be one of');
      }
    });
  });
});
