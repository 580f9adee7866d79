import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import before from '../../test/support/storage/itemsBefore014.json' with { type: 'json' };
import { specSchema } from '../../test/support/items/responseSchemas.ts';
import { ENGINES, openTestDb, skipPostgres, type TestDb } from '../../test/support/storage/testDb.ts';
import type { EntityType } from '../domain/entityRules.ts';
import { getItemById } from './items/getItemById.ts';
import { insertItem } from './items/insertItem.ts';
import { listMigrations, runMigrations } from './migrate.ts';

// Migration 014 on a store as main wrote it before: migrated to 011, holding items of the old
// route, venue capacity and room shapes (the docs of main's demo items, itemsBefore014.json, and
// edge cases), then migrated to the end. Every old value must be found in its new place.

type Doc = Record<string, any>;

const OLD_ROUTE = before.route as Doc;
const OLD_VENUE = before.venue as Doc;
const OLD_BERLAGE = before.berlage as Doc;

const EDGE_ROUTE: Doc = {
  trcItemDetails: [{ lang: 'de', title: 'Rundweg' }],
  routeInfo: {
    routeType: 'walking',
    surfaceType: 'unpaved',
    waypoints: [{ xcoordinate: '5.1', ycoordinate: '52,1', label: 'kept' }, { xcoordinate: '-0.5' }, 'not a point'],
    pointsOfInterest: [{ name: 'Mühle', ycoordinate: '52.2', note: 'kept' }, { trcid: 'trc-only' }],
    url: 'https://routes.example.com/kept',
  },
};
const EDGE_VENUE: Doc = {
  venueCapacity: { totalCapacity: 80, squareMetres: 1234.5, standing: 120 },
  trcitemRelation: {
    links: [{ linkType: 'related', trcid: 'trc-x' }],
    subItemGroups: [
      { name: 'Zaal', capacities: { theater: 50, boardroom: 12 }, note: 'kept' },
      { subItemTranslations: [{ lang: 'en', title: 'New shape, left alone' }] },
      { surface: 0 },
    ],
  },
};
const UNTOUCHED: Doc = {
  trcItemDetails: [{ lang: 'nl', title: 'Al in het nieuwe model' }],
  routeInfo: { routeType: 'cycling', routeCoordinates: [{ lat: 52, lng: 5 }] },
};

const lang = (doc: Doc) => doc.translations.primaryLanguage as string;

for (const engine of ENGINES) {
  describe.skipIf(engine === 'postgres' && skipPostgres())(`migration 014 [${engine}]`, () => {
    let handle: TestDb;
    let directory: string;
    const ids: Record<string, string> = {};
    const docs: Record<string, Doc> = {};
    /** The docs just before 014: what the other shape migrations (012, 013) made of them. */
    const before014: Record<string, Doc> = {};

    beforeAll(async () => {
      // The store as it was at 011: only the migrations up to it.
      directory = await mkdtemp(join(tmpdir(), 'migrations-011-'));
      for (const m of await listMigrations()) if (m.version <= 11) await copyFile(m.path, join(directory, m.name));
      handle = await openTestDb(engine, { migrate: false });
      await runMigrations(handle.db, { directory });
      const items: Array<[string, EntityType, Doc]> = [
        ['route', 'ROUTE', OLD_ROUTE],
        ['venue', 'VENUE', OLD_VENUE],
        ['berlage', 'VENUE', OLD_BERLAGE],
        ['edgeRoute', 'ROUTE', EDGE_ROUTE],
        ['edgeVenue', 'VENUE', EDGE_VENUE],
        ['untouched', 'ROUTE', UNTOUCHED],
        ['event', 'EVENEMENT', { trcItemDetails: [{ lang: 'nl', title: 'Geen route' }] }],
      ];
      for (const [name, entitytype, doc] of items) {
        const stored = await insertItem(handle.db, {
          entitytype,
          trcid: `trc-014-${name}`,
          wfstatus: 'approved',
          userorganisation: 'utrecht-toerisme',
          externalId: null,
          title: null,
          slug: null,
          doc,
          rendering: { body: '"stale":true', key: 'old' },
        });
        ids[name] = stored.id;
      }
      for (const m of await listMigrations()) if (m.version < 14) await copyFile(m.path, join(directory, m.name));
      await runMigrations(handle.db, { directory });
      for (const [name, entitytype] of items) {
        before014[name] = (await getItemById(handle.db, { entitytype, id: ids[name]! }))!.doc as Doc;
      }
      expect(await runMigrations(handle.db)).toContain('014_route_and_venue_shapes.sql');
      for (const [name, entitytype] of items) {
        docs[name] = (await getItemById(handle.db, { entitytype, id: ids[name]! }))!.doc as Doc;
      }
    });
    afterAll(async () => {
      await handle?.close();
      await rm(directory, { recursive: true, force: true });
    });

    it("when a route of the old shape is migrated, then every routeInfo value is in the model's field [DEC-ITEM-016]", () => {
      const old = OLD_ROUTE.routeInfo;
      const info = docs.route!.routeInfo;
      expect(Object.keys(info).sort()).toEqual(
        [
          'difficulty',
          'distanceInKilometers',
          'durationInMinutes',
          'pois',
          'primarySurface',
          'routeCoordinates',
          'routeType',
        ].sort(),
      );
      expect(info).toMatchObject({
        routeType: old.routeType,
        distanceInKilometers: old.distance,
        durationInMinutes: old.duration,
        difficulty: old.difficulty,
        primarySurface: old.surfaceType,
      });
      expect(info.routeCoordinates).toEqual(
        old.waypoints.map((w: Doc) => ({ lat: Number(w.ycoordinate), lng: Number(w.xcoordinate) })),
      );
      expect(info.pois).toEqual(
        old.pointsOfInterest.map((p: Doc) => ({
          coordinate: { lat: Number(p.ycoordinate), lng: Number(p.xcoordinate) },
          trcItemDetails: [{ lang: lang(OLD_ROUTE), title: p.name }],
          ...(p.trcid === undefined ? {} : { locationItem: { trcid: p.trcid } }),
        })),
      );
      // Everything else of the item is as the migrations before 014 left it (018 moves its files,
      // location and contact details on, migration018.test.ts).
      const { routeInfo: _new, files: _f, location: _l, contactinfo: _c, ...rest } = docs.route!;
      const { routeInfo: _old, files: _of, location: _ol, contactinfo: _oc, ...oldRest } = before014.route!;
      expect(rest).toEqual(oldRest);
    });

    it('when venues of the old shape are migrated, then their capacity values are categories after the ones they had [DEC-ITEM-150]', () => {
      for (const [name, old] of [
        ['venue', OLD_VENUE],
        ['berlage', OLD_BERLAGE],
      ] as const) {
        const doc = docs[name]!;
        expect(doc).not.toHaveProperty('venueCapacity');
        const capacity = old.venueCapacity;
        expect(doc.trcItemCategories).toEqual({
          types: old.trcItemCategories.types,
          categories: [
            ...old.trcItemCategories.categories,
            { catid: 'p-1501', value: String(capacity.totalCapacity) },
            { catid: 'p-1502', value: String(capacity.minGroupSize) },
            { catid: 'p-1503', value: String(capacity.maxGroupSize) },
            { catid: 'p-1504', value: String(capacity.meetingRooms) },
            { catid: 'p-1505', value: String(capacity.squareMetres) },
          ],
        });
      }
    });

    it("when rooms of the old shape are migrated, then name, surface and each setup's capacity are the model's title and categories [DEC-ITEM-151]", () => {
      const setups = {
        theater: 'p-1601',
        ushape: 'p-1602',
        cabaret: 'p-1603',
        reception: 'p-1604',
        seatedDinner: 'p-1605',
      };
      for (const [name, old] of [
        ['venue', OLD_VENUE],
        ['berlage', OLD_BERLAGE],
      ] as const) {
        expect(docs[name]!.trcitemRelation.subItemGroups).toEqual(
          old.trcitemRelation.subItemGroups.map((room: Doc) => ({
            subItemTranslations: [{ lang: lang(old), title: room.name }],
            categories: [
              { catid: 'p-1505', value: String(room.surface) },
              ...Object.entries(setups)
                .filter(([setup]) => room.capacities[setup] !== undefined)
                .map(([setup, catid]) => ({ catid, value: String(room.capacities[setup]) })),
            ],
          })),
        );
      }
    });

    it('when migrated routes and venues are read back, then they are valid write bodies, so a GET-modify-PUT works [DEC-ITEM-016] [DEC-ITEM-151]', () => {
      const route = specSchema('/components/schemas/RouteDraft');
      const venue = specSchema('/components/schemas/VenueDraft');
      expect(route(docs.route), JSON.stringify(route.errors)).toBe(true);
      expect(route(docs.untouched), JSON.stringify(route.errors)).toBe(true);
      // Only the old shape's fields are checked here: other migrations own calendar, files and location.
      const own = (doc: Doc) => ({ trcItemCategories: doc.trcItemCategories, trcitemRelation: doc.trcitemRelation });
      expect(venue(own(docs.venue!)), JSON.stringify(venue.errors)).toBe(true);
      expect(venue(own(docs.berlage!)), JSON.stringify(venue.errors)).toBe(true);
    });

    it('when odd values were stored, then they are kept: unknown fields, non-numeric coordinates, leftover capacities; the language falls back to the first detail [DEC-ITEM-016] [DEC-ITEM-150]', () => {
      expect(docs.edgeRoute!.routeInfo).toEqual({
        routeType: 'walking',
        primarySurface: 'unpaved',
        url: 'https://routes.example.com/kept',
        routeCoordinates: [{ lat: '52,1', lng: 5.1, label: 'kept' }, { lng: -0.5 }, 'not a point'],
        pois: [
          { coordinate: { lat: 52.2 }, trcItemDetails: [{ lang: 'de', title: 'Mühle' }], note: 'kept' },
          { locationItem: { trcid: 'trc-only' } },
        ],
      });
      expect(docs.edgeVenue).toEqual({
        venueCapacity: { standing: 120 },
        trcItemCategories: {
          types: [],
          categories: [
            { catid: 'p-1501', value: '80' },
            { catid: 'p-1505', value: '1234.5' },
          ],
        },
        trcitemRelation: {
          links: [{ linkType: 'related', trcid: 'trc-x' }],
          subItemGroups: [
            {
              subItemTranslations: [{ lang: 'nl', title: 'Zaal' }],
              categories: [{ catid: 'p-1601', value: '50' }],
              capacities: { boardroom: 12 },
              note: 'kept',
            },
            { subItemTranslations: [{ lang: 'en', title: 'New shape, left alone' }] },
            { categories: [{ catid: 'p-1505', value: '0' }] },
          ],
        },
      });
    });

    it('when an item has nothing of the old shapes, then its document and stored rendering are untouched; migrated ones lose theirs', async () => {
      expect(docs.untouched).toEqual(UNTOUCHED);
      expect(docs.event).toEqual({ trcItemDetails: [{ lang: 'nl', title: 'Geen route' }] });
      const { rows } = await handle.db.query<{ trcid: string; rendered_key: string | null }>(
        `SELECT trcid, rendered_key FROM items WHERE trcid LIKE 'trc-014-%' ORDER BY trcid`,
      );
      expect(Object.fromEntries(rows.map((r) => [r.trcid, r.rendered_key]))).toEqual({
        'trc-014-berlage': null,
        'trc-014-edgeRoute': null,
        'trc-014-edgeVenue': null,
        'trc-014-event': 'old',
        'trc-014-route': null,
        'trc-014-untouched': 'old',
        'trc-014-venue': null,
      });
    });

    it('when it has run, then its helper functions are gone', async () => {
      const { rows } = await handle.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_proc WHERE proname LIKE 'migration_014_%'`,
      );
      expect(rows[0]!.n).toBe(0);
    });
  });
}
