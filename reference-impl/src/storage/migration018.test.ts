import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import before from '../../test/support/storage/itemsBefore018.json' with { type: 'json' };
import { specSchema } from '../../test/support/items/responseSchemas.ts';
import { ENGINES, openTestDb, skipPostgres, type TestDb } from '../../test/support/storage/testDb.ts';
import type { EntityType } from '../domain/entityRules.ts';
import { getItemById } from './items/getItemById.ts';
import { insertItem } from './items/insertItem.ts';
import { listMigrations, runMigrations } from './migrate.ts';

// Migration 018 on a store as main wrote it before: migrated to 017, holding items of the old
// contactinfo, url, file and location shapes (the docs of main's demo items, itemsBefore018.json,
// and edge cases), then migrated to the end. Every old value must be found in its new place.

type Doc = Record<string, any>;

const OLD = before as Record<'location' | 'event' | 'route' | 'venue', Doc>;

const EDGE: Doc = {
  contactinfo: {
    mail: [{ email: 'a@example.nl' }, { email: 'b@example.nl', descriptioncode: 'press' }],
    phones: [{ number: '+31 1' }, { number: '+31 2' }],
    urls: [{ url: 'https://example.nl/t', urlServiceType: 'tickets', note: 'kept' }, 'not a url'],
    note: 'kept',
  },
  calendar: {
    singleDates: [
      { date: '2027-05-01', when: [{ timestart: '10:00', urls: [{ url: 'u', urlServiceType: 'tickets' }] }] },
    ],
    patternDates: [
      { opens: [{ day: 2, whens: [{ timestart: '09:00', urls: [{ url: 'v', urlServiceType: 'tickets' }] }] }] },
    ],
    closeds: [{ date: '2027-05-02', whens: [{ timestart: '10:00', urls: [{ url: 'w', urlServiceType: 'video' }] }] }],
  },
  files: [
    { hlink: 'https://example.nl/logo.svg', filename: 'logo.svg', filetype: 'svg', title: 'Logo' },
    { hlink: 'https://example.nl/clip.mp4', filetype: 'mp4', mediatype: 'photo' },
    { hlink: 'https://example.nl/kaart.pdf', filetype: 'pdf', mediatype: 'map' },
    { hlink: 'https://example.nl/doc.pdf', mediatype: 'document', title: { label: 'Al een object' } },
    { hlink: 'https://example.nl/film.webm', filetype: 'webm' },
    'not a file',
  ],
  location: { xcoordinate: '4.9', note: 'kept' },
};
const ALREADY_POINTS: Doc = {
  location: { address: { gisCoordinates: [{ xcoordinate: '1', ycoordinate: '2' }] }, xcoordinate: '3' },
  contactinfo: { mail: [] },
};
const ROUTE_EDGE: Doc = {
  routeInfo: {
    pois: [
      {
        location: { xcoordinate: '5.05', ycoordinate: '52.13' },
        files: [{ hlink: 'https://example.nl/p.jpg', title: 'Punt' }],
        calendar: {
          singleDates: [
            { date: '2027-06-01', when: [{ timestart: '10:00', urls: [{ url: 'x', urlServiceType: 'tickets' }] }] },
          ],
        },
      },
      'not a poi',
    ],
  },
};
const VENUE_EDGE: Doc = {
  trcitemRelation: {
    subItemGroups: [
      { media: [{ hlink: 'https://example.nl/zaal.jpg', title: 'Zaal', mediatype: 'map' }] },
      { trcid: 'r' },
    ],
  },
};
const UNTOUCHED: Doc = {
  trcItemDetails: [{ lang: 'nl', title: 'Al in het nieuwe model' }],
  contactinfo: { mail: { email: 'x@example.nl' } },
  files: [{ hlink: 'https://example.nl/a.jpg', title: { label: 'A' } }],
  location: { address: { city: 'Delft', gisCoordinates: [{ xcoordinate: '4.36', ycoordinate: '52.01' }] } },
};

for (const engine of ENGINES) {
  describe.skipIf(engine === 'postgres' && skipPostgres())(`migration 018 [${engine}]`, () => {
    let handle: TestDb;
    let directory: string;
    const ids: Record<string, string> = {};
    const docs: Record<string, Doc> = {};
    const stamps: Record<string, { before: string; after: string }> = {};
    let outboxBefore = 0;

    beforeAll(async () => {
      directory = await mkdtemp(join(tmpdir(), 'migrations-017-'));
      for (const m of await listMigrations()) if (m.version <= 17) await copyFile(m.path, join(directory, m.name));
      handle = await openTestDb(engine, { migrate: false });
      await runMigrations(handle.db, { directory });
      const items: Array<[string, EntityType, Doc]> = [
        ['location', 'LOCATIE', OLD.location],
        ['event', 'EVENEMENT', OLD.event],
        ['route', 'ROUTE', OLD.route],
        ['venue', 'VENUE', OLD.venue],
        ['edge', 'EVENEMENT', EDGE],
        ['points', 'LOCATIE', ALREADY_POINTS],
        ['routeEdge', 'ROUTE', ROUTE_EDGE],
        ['venueEdge', 'VENUE', VENUE_EDGE],
        ['untouched', 'LOCATIE', UNTOUCHED],
      ];
      for (const [name, entitytype, doc] of items) {
        const stored = await insertItem(handle.db, {
          entitytype,
          trcid: `trc-018-${name}`,
          wfstatus: 'approved',
          userorganisation: 'amsterdam-marketing',
          externalId: null,
          title: null,
          slug: null,
          doc,
          rendering: { body: '"stale":true', key: 'old' },
        });
        ids[name] = stored.id;
        stamps[name] = { before: stored.lastupdated.toISOString(), after: '' };
      }
      outboxBefore = await outboxCount(handle);
      expect(await runMigrations(handle.db)).toContain('018_contact_file_location_shapes.sql');
      for (const [name, entitytype] of items) {
        const item = (await getItemById(handle.db, { entitytype, id: ids[name]! }))!;
        docs[name] = item.doc as Doc;
        stamps[name]!.after = item.lastupdated.toISOString();
      }
    });
    afterAll(async () => {
      await handle?.close();
      await rm(directory, { recursive: true, force: true });
    });

    it("when a location of main's demo data is migrated, then its contact details, urls, files and position are in the model's fields [DEC-ITEM-160] [DEC-ITEM-161] [DEC-ITEM-162] [DEC-ITEM-163]", () => {
      const old = OLD.location;
      const doc = docs.location!;
      expect(doc.contactinfo).toEqual({
        mail: old.contactinfo.mail[0],
        phone: old.contactinfo.phones[0],
        urls: [old.contactinfo.urls[0], { ...old.contactinfo.urls[1], urlServiceType: 'booking' }],
      });
      expect(doc.files).toEqual(old.files.map((f: Doc) => ({ ...f, title: { label: f.title } })));
      expect(doc.location).toEqual({
        address: {
          ...old.location.address,
          gisCoordinates: [{ xcoordinate: old.location.xcoordinate, ycoordinate: old.location.ycoordinate }],
        },
      });
      const { contactinfo: _c, files: _f, location: _l, ...rest } = doc;
      const { contactinfo: _oc, files: _of, location: _ol, ...oldRest } = old;
      expect(rest).toEqual(oldRest);
    });

    it("when the other demo items are migrated, then each keeps every value, moved to the model's fields [DEC-ITEM-160] [DEC-ITEM-162] [DEC-ITEM-163]", () => {
      for (const name of ['event', 'route', 'venue'] as const) {
        const old = OLD[name];
        const doc = docs[name]!;
        expect(doc.location.address.gisCoordinates).toEqual([
          { xcoordinate: old.location.xcoordinate, ycoordinate: old.location.ycoordinate },
        ]);
        expect(doc.location.xcoordinate).toBeUndefined();
        expect(doc.files.map((f: Doc) => f.title.label)).toEqual(old.files.map((f: Doc) => f.title));
        if (old.contactinfo) {
          expect(doc.contactinfo.mail).toEqual(old.contactinfo.mail[0]);
          expect(doc.contactinfo.phone).toEqual(old.contactinfo.phones[0]);
          expect(doc.contactinfo.urls.map((u: Doc) => u.urlServiceType)).not.toContain('tickets');
        }
        expect(doc.routeInfo).toEqual(old.routeInfo);
        expect(doc.calendar).toEqual(old.calendar);
      }
    });

    it('when odd or rich values were stored, then nothing is lost: lists of more than one stay, unknown fields and non-objects are kept [DEC-ITEM-160] [DEC-ITEM-161] [DEC-ITEM-162] [DEC-ITEM-163]', () => {
      expect(docs.edge!.contactinfo).toEqual({
        mail: { email: 'a@example.nl' },
        mails: EDGE.contactinfo.mail,
        phone: { number: '+31 1' },
        phones: EDGE.contactinfo.phones,
        urls: [{ url: 'https://example.nl/t', urlServiceType: 'booking', note: 'kept' }, 'not a url'],
        note: 'kept',
      });
      expect(docs.edge!.calendar.singleDates[0].when[0].urls).toEqual([{ url: 'u', urlServiceType: 'booking' }]);
      expect(docs.edge!.calendar.patternDates[0].opens[0].whens[0].urls).toEqual([
        { url: 'v', urlServiceType: 'booking' },
      ]);
      expect(docs.edge!.calendar.closeds).toEqual(EDGE.calendar.closeds);
      expect(docs.edge!.files).toEqual([
        { hlink: 'https://example.nl/logo.svg', filename: 'logo.svg', mediatype: 'photo', title: { label: 'Logo' } },
        { hlink: 'https://example.nl/clip.mp4', mediatype: 'photo' },
        { hlink: 'https://example.nl/kaart.pdf', filetype: 'pdf', mediatype: 'roadmap' },
        { hlink: 'https://example.nl/doc.pdf', mediatype: 'attachment', title: { label: 'Al een object' } },
        { hlink: 'https://example.nl/film.webm', mediatype: 'video' },
        'not a file',
      ]);
      expect(docs.edge!.location).toEqual({ address: { gisCoordinates: [{ xcoordinate: '4.9' }] }, note: 'kept' });
      expect(docs.points).toEqual({ location: ALREADY_POINTS.location, contactinfo: {} });
    });

    it("when a route's points of interest and a venue's rooms hold old shapes, then those move too [DEC-ITEM-161] [DEC-ITEM-162] [DEC-ITEM-163]", () => {
      expect(docs.routeEdge!.routeInfo.pois).toEqual([
        {
          location: { address: { gisCoordinates: [{ xcoordinate: '5.05', ycoordinate: '52.13' }] } },
          files: [{ hlink: 'https://example.nl/p.jpg', title: { label: 'Punt' } }],
          calendar: {
            singleDates: [
              { date: '2027-06-01', when: [{ timestart: '10:00', urls: [{ url: 'x', urlServiceType: 'booking' }] }] },
            ],
          },
        },
        'not a poi',
      ]);
      expect(docs.venueEdge!.trcitemRelation.subItemGroups).toEqual([
        { media: [{ hlink: 'https://example.nl/zaal.jpg', title: { label: 'Zaal' }, mediatype: 'roadmap' }] },
        { trcid: 'r' },
      ]);
    });

    it('when the demo items are read back, then they are valid write bodies, so a GET-modify-PUT works [DEC-ITEM-160] [DEC-ITEM-161] [DEC-ITEM-162] [DEC-ITEM-163]', () => {
      const drafts = { location: 'LocationDraft', event: 'EventDraft', route: 'RouteDraft', venue: 'VenueDraft' };
      for (const [name, schema] of Object.entries(drafts)) {
        const valid = specSchema(`/components/schemas/${schema}`);
        expect(valid(docs[name]), `${name}: ${JSON.stringify(valid.errors)}`).toBe(true);
      }
    });

    it('when it has run, then lastupdated is unchanged, no webhook is queued, untouched items keep their rendering and its helpers are gone', async () => {
      for (const stamp of Object.values(stamps)) expect(stamp.after).toBe(stamp.before);
      expect(await outboxCount(handle)).toBe(outboxBefore);
      expect(docs.untouched).toEqual(UNTOUCHED);
      const { rows } = await handle.db.query<{ trcid: string; rendered_key: string | null }>(
        `SELECT trcid, rendered_key FROM items WHERE trcid IN ('trc-018-untouched', 'trc-018-location') ORDER BY trcid`,
      );
      expect(rows.map((r) => r.rendered_key)).toEqual([null, 'old']);
      const helpers = await handle.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_proc WHERE proname LIKE 'migration_018_%'`,
      );
      expect(helpers.rows[0]!.n).toBe(0);
    });
  });
}

async function outboxCount(handle: TestDb): Promise<number> {
  const { rows } = await handle.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_outbox');
  return rows[0]!.n;
}
