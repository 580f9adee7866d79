// Migration 012 (calendar, promotion, performer and SEO shapes) on a store written before it:
// every old value is found in its new place, on both engines.
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createValidatorFactory, formatErrors, loadSpec } from '../../../spec/index.ts';
import { expandCalendar } from '../domain/calendar.ts';
import { ENGINES, openTestDb, skipPostgres, type TestDb } from '../../test/support/storage/testDb.ts';
import { insertItem } from './items/insertItem.ts';
import { listMigrations, runMigrations, MIGRATIONS_DIRECTORY } from './migrate.ts';

type Loose = Record<string, any>;

/** Item documents as the service stored them before this migration (its demo items' drafts and edge cases). */
const FIXTURE = new URL('../../test/fixtures/items-before-012.json', import.meta.url);
const NAME = '_calendar_price_seo_shapes.sql';

const validatorAt = createValidatorFactory(loadSpec().document);
const validators = Object.fromEntries(
  ['Calendar', 'PriceElement', 'Promotion', 'Performer', 'SeoMetadata'].map((name) => [
    name,
    validatorAt(`/components/schemas/${name}`),
  ]),
);

function problems(schema: string, value: unknown): string {
  const validate = validators[schema]!;
  return validate(value) ? '' : formatErrors(validate);
}

for (const engine of ENGINES) {
  describe.skipIf(engine === 'postgres' && skipPostgres())(`migration 012, calendar and SEO shapes [${engine}]`, () => {
    let handle: TestDb;
    let before: { name: string; entitytype: string; doc: Loose }[];
    const after = new Map<string, Loose>();

    beforeAll(async () => {
      const all = await listMigrations(MIGRATIONS_DIRECTORY);
      const mine = all.find((m) => m.name.endsWith(NAME))!;
      const earlier = await mkdtemp(join(tmpdir(), 'migrations-'));
      try {
        for (const m of all.filter((m) => m.version < mine.version)) await copyFile(m.path, join(earlier, m.name));
        handle = await openTestDb(engine, { migrate: false });
        await runMigrations(handle.db, { directory: earlier });
      } finally {
        await rm(earlier, { recursive: true, force: true });
      }
      before = JSON.parse(await readFile(FIXTURE, 'utf8'));
      const ids = new Map<string, string>();
      for (const [index, item] of before.entries()) {
        const stored = await insertItem(handle.db, {
          trcid: `trc-before-012-${index}`,
          entitytype: item.entitytype as never,
          wfstatus: 'approved',
          userorganisation: 'amsterdam-marketing',
          externalId: null,
          title: null,
          slug: null,
          doc: item.doc,
        });
        ids.set(item.name, stored.id);
      }
      // Only this migration and those before it: later ones reshape other objects.
      const upTo = await mkdtemp(join(tmpdir(), 'migrations-'));
      try {
        for (const m of all.filter((m) => m.version <= mine.version)) await copyFile(m.path, join(upTo, m.name));
        expect(await runMigrations(handle.db, { directory: upTo })).toEqual([mine.name]);
      } finally {
        await rm(upTo, { recursive: true, force: true });
      }
      const { rows } = await handle.db.query<{ id: string; doc: Loose }>('SELECT id, doc FROM items');
      for (const [name, id] of ids) after.set(name, rows.find((r) => r.id === id)!.doc);
    });
    afterAll(() => handle?.close());

    it('when the concert of the demo data is migrated, then its pattern, prices, promotion, performers and SEO texts are in their new places [DEC-ITEM-010] [DEC-ITEM-105] [DEC-ITEM-106]', () => {
      const old = before.find((i) => i.name === 'EventGrachtenfestivalDraft')!.doc;
      const doc = after.get('EventGrachtenfestivalDraft')!;
      const slot = old.calendar.patternDates[0].when[0];
      expect(doc.calendar).toEqual({
        calendarType: 'PATTERNDATES',
        singleDates: old.calendar.singleDates,
        patternDates: [
          {
            startdate: `${old.calendar.patternDates[0].startdate}T00:00:00`,
            enddate: `${old.calendar.patternDates[0].enddate}T00:00:00`,
            recurrencyType: 'weekly',
            opens: [
              { day: 4, whens: [slot] },
              { day: 6, whens: [slot] },
            ],
          },
        ],
      });
      // The days the old pattern meant (Wednesday 18 and Friday 20 August) are the days it computes now.
      expect((expandCalendar(doc.calendar).singleDates as Loose[]).map((d) => d.date)).toEqual([
        '2027-08-14T00:00:00',
        '2027-08-18T00:00:00',
        '2027-08-20T00:00:00',
      ]);
      expect(doc.priceElements).toEqual(old.priceElements);
      const [promotion] = old.promotions;
      expect(doc.promotions).toEqual([
        {
          product: promotion.title,
          translations: [{ lang: 'nl', description: promotion.description }],
          externalReference: promotion.externalReference,
          startDate: '2027-03-01T00:00:00+01:00',
          endDate: '2027-06-30T23:59:59+02:00',
          validityStrategy: 'dateRange',
          conditions: promotion.conditions,
        },
      ]);
      expect(doc.performers).toEqual(old.performers.map((p: Loose) => ({ label: p.label, rolelabel: p.role })));
      const seo = old.seoMetadata;
      expect(doc.seoMetadata).toEqual({
        seoDetails: [
          { lang: 'nl', metaTitle: seo.title, metaDescription: seo.description, ogImageUrl: seo.openGraph.image },
        ],
        keywords: seo.keywords,
        // `website` is not one of the model's Open Graph types, and these texts differ from the meta ones.
        openGraph: { title: seo.openGraph.title, description: seo.openGraph.description, type: 'website' },
      });
      for (const key of Object.keys(old).filter(
        (k) => !['calendar', 'promotions', 'performers', 'seoMetadata'].includes(k),
      ))
        expect(doc[key], key).toEqual(old[key]);
    });

    it('when the museum, the route and the market are migrated, then their calendars keep their days and their SEO its place type [DEC-ITEM-011]', () => {
      const museum = after.get('LocationRijksmuseumDraft')!;
      expect(museum.calendar.patternDates).toEqual([
        {
          startdate: '2026-12-26T00:00:00',
          enddate: '2027-01-03T00:00:00',
          recurrencyType: 'daily',
          opens: [{ whens: [{ timestart: '09:00', timeend: '18:00' }] }],
        },
      ]);
      expect(expandCalendar(museum.calendar).singleDates).toHaveLength(9);
      expect(museum.seoMetadata.seoDetails[0]).toMatchObject({ lang: 'nl', ogType: 'place' });
      expect(museum.seoMetadata.openGraph).toEqual({
        title: 'Rijksmuseum Amsterdam',
        description: 'Het museum van Nederland, met de Nachtwacht van Rembrandt.',
      });
      expect(after.get('RouteVechtDraft')!.calendar).toEqual({ calendarType: 'ALWAYSOPEN', alwaysopen: true });
      const market = before.find((i) => i.name === 'EventList[1]')!.doc;
      expect(after.get('EventList[1]')).toEqual(market);
    });

    it('when edge cases are migrated, then 24:00 ends become 00:00, a weekday string and empty lists are read as before, and former fields whose new names are taken stay [DEC-ITEM-023] [DEC-ITEM-104]', () => {
      const doc = after.get('edge cases')!;
      expect(doc.calendar).toEqual({
        calendarType: 'ALWAYSOPEN',
        alwaysopen: true,
        singleDates: [{ date: '2027-05-01T00:00:00', when: [{ timestart: '22:00', timeend: '00:00' }] }],
        patternDates: [
          {
            startdate: '2027-06-01T00:00:00',
            enddate: '2027-06-30T00:00:00',
            recurrencyType: 'daily',
            opens: [{ whens: [{ timestart: '10:00', timeend: '00:00' }] }],
          },
          {
            startdate: '2027-07-01T00:00:00',
            enddate: '2027-07-31T00:00:00',
            note: 'kept',
            recurrencyType: 'weekly',
            opens: [{ day: 1 }],
          },
          { startdate: '2027-08-01T00:00:00', enddate: '2027-08-31T00:00:00', recurrencyType: 'daily' },
          { startdate: '2027-09-01T00:00:00', enddate: '2027-09-30T00:00:00' },
        ],
      });
      expect(
        (expandCalendar(doc.calendar).singleDates as Loose[]).filter((d) => d.date.startsWith('2027-07')),
      ).toHaveLength(4);
      expect(doc.performers).toEqual([
        { label: 'Orkest', rolelabel: 'orchestra' },
        { label: 'Y', role: 'a', rolelabel: 'b' },
        { label: 'Z' },
      ]);
      expect(doc.promotions).toEqual([
        { product: 'Laatste kans', endDate: '2027-01-15T23:59:59+01:00', validityStrategy: 'dateRange' },
        { externalReference: 'R-1' },
        { title: 'T', product: 'P', description: 'D', translations: 'x' },
      ]);
      // No primary language: the SEO entry has none either.
      expect(doc.seoMetadata).toEqual({
        seoDetails: [{ metaTitle: 'A', ogImageUrl: 'https://example.com/a.jpg' }],
        openGraph: { description: 'Anders', type: 'website' },
        keywords: ['k'],
      });
    });

    it("when any migrated item is checked, then its calendar, prices, promotions, performers and SEO fields fit the spec's schemas", () => {
      for (const [name, doc] of after) {
        if (name === 'edge cases') continue; // it keeps a former field under a taken name on purpose
        if (doc.calendar !== undefined) expect(problems('Calendar', doc.calendar), name).toBe('');
        if (doc.seoMetadata !== undefined) expect(problems('SeoMetadata', doc.seoMetadata), name).toBe('');
        for (const [list, schema] of [
          ['priceElements', 'PriceElement'],
          ['promotions', 'Promotion'],
          ['performers', 'Performer'],
        ] as const)
          for (const entry of doc[list] ?? []) expect(problems(schema, entry), `${name} ${list}`).toBe('');
      }
    });
  });
}
