import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EntityType } from '../../domain/entityRules.ts';
import { describeEachEngine } from '../../../test/support/storage/testDb.ts';
import { insertItem } from './insertItem.ts';
import { FILTER_EXPRESSIONS, textSearchQuery, type ItemFilters } from './listFilters.ts';
import { listItems } from './listItems.ts';

type Doc = Record<string, unknown>;

const MIGRATION = readFileSync(new URL('../migrations/020_list_filter_indexes.sql', import.meta.url), 'utf8');

describe('the list filter indexes', () => {
  it('when migration 020 is read, then it indexes every filter expression with the text the queries use [DEC-LIST-032]', () => {
    for (const [name, expression] of Object.entries(FILTER_EXPRESSIONS)) {
      expect(MIGRATION, name).toContain(`(${expression})`);
    }
  });
});

describe('a search value', () => {
  it('when it holds words of any script and punctuation, then each word is a quoted prefix [DEC-LIST-021]', () => {
    expect(textSearchQuery("Muse' & amst!")).toBe("'muse':* & 'amst':*");
    expect(textSearchQuery('Straße Köln')).toBe("'straße':* & 'köln':*");
    expect(textSearchQuery(" '&|! ")).toBeUndefined();
  });
});

describeEachEngine('list filters of the operator', (ctx) => {
  const org = `org-${randomUUID().slice(0, 8)}`;
  const names = new Map<string, string>();

  async function add(
    name: string,
    doc: Doc,
    extra: { entitytype?: EntityType; externalId?: string; wfstatus?: 'deleted' } = {},
  ) {
    const stored = await insertItem(ctx.db, {
      trcid: `trc-${randomUUID()}`,
      entitytype: extra.entitytype ?? 'EVENEMENT',
      wfstatus: extra.wfstatus ?? 'approved',
      userorganisation: org,
      externalId: extra.externalId ?? null,
      title: name,
      slug: null,
      doc,
    });
    names.set(stored.id, name);
  }

  async function found(filters: ItemFilters, entitytype: EntityType = 'EVENEMENT'): Promise<string[]> {
    const rows = await listItems(ctx.db, {
      entitytype,
      scope: { userorganisations: [org], wfstatus: 'all' },
      filters,
      sortField: 'title',
      sortOrder: 'ASC',
      limit: 100,
    });
    return rows.map((row) => names.get(row.id) ?? row.id);
  }

  beforeAll(async () => {
    await add('concert', {
      trcItemDetails: [
        { lang: 'nl', title: 'Jazz in het Museum', shortdescription: 'Café-concert' },
        { lang: 'en', title: 'Jazz at the museum', longdescription: 'An evening in Amsterdam' },
      ],
      trcItemCategories: { types: [{ catid: '2.3.1' }], categories: [{ catid: 'c-1' }, { catid: 'c-2' }] },
      keywords: 'Jazz, kunst;Muziek',
      markers: 'new',
      owner: 'Editor@Amsterdam.example',
      location: { address: { city: ' Amsterdam ' } },
      calendar: { singleDates: [{ date: '2026-03-01T20:00:00' }, { date: '2026-12-31T21:00:00' }] },
    });
    await add(
      'festival',
      {
        trcItemDetails: [{ lang: 'de', title: 'Sommerfest', longdescription: 'Straßenmusik in Köln' }],
        trcItemCategories: { types: [{ catid: '2.4' }] },
        markers: 'old, new',
        location: { address: { city: 'Köln' } },
        calendar: { patternDates: [{ startdate: '2026-06-01', enddate: '2026-06-30' }] },
      },
      { externalId: `feed-${randomUUID()}` },
    );
    await add('weekly', {
      trcItemDetails: [{ lang: 'nl', title: 'Wekelijkse markt' }],
      calendar: { patternDates: [{ startdate: '2027-01-01', occurrence: 10 }] },
    });
    await add('undated', { trcItemDetails: [{ lang: 'en', title: 'Undated museum talk' }] });
    await add('gone', { trcItemDetails: [{ lang: 'nl', title: 'Oud museum' }] }, { wfstatus: 'deleted' });
    await add(
      'museum',
      { trcItemDetails: [{ lang: 'nl', title: 'Rijksmuseum' }], location: { address: { city: 'Amsterdam' } } },
      { entitytype: 'LOCATIE' },
    );
  });

  it('when search names word beginnings, then items with each of them in a title or description of any language are listed [DEC-LIST-021]', async () => {
    expect(await found({ search: textSearchQuery('muse')! })).toEqual(['concert', 'undated']);
    expect(await found({ search: textSearchQuery('CAFÉ amst')! })).toEqual(['concert']);
    expect(await found({ search: textSearchQuery('straßenmusik')! })).toEqual(['festival']);
    expect(await found({ search: textSearchQuery('rijksmuseum')! })).toEqual([]);
    expect(await found({ search: textSearchQuery('rijksmuseum')! }, 'LOCATIE')).toEqual(['museum']);
  });

  it('when types or categories are asked, then items holding one of the ids are listed [DEC-LIST-022]', async () => {
    expect(await found({ types: ['2.4', '9.9'] })).toEqual(['festival']);
    expect(await found({ categories: ['c-2'] })).toEqual(['concert']);
    expect(await found({ types: ['c-2'] })).toEqual([]);
  });

  it('when lang, city, owner or externalid is asked, then only the items matching it are listed [DEC-LIST-024] [DEC-LIST-025] [DEC-LIST-026] [DEC-LIST-028]', async () => {
    expect(await found({ lang: 'en' })).toEqual(['concert', 'undated']);
    expect(await found({ lang: 'EN' })).toEqual([]);
    expect(await found({ city: 'amsterdam ' })).toEqual(['concert']);
    expect(await found({ city: 'KÖLN' })).toEqual(['festival']);
    expect(await found({ owner: 'editor@amsterdam.example' })).toEqual(['concert']);
    const [festival] = await listItems(ctx.db, {
      entitytype: 'EVENEMENT',
      scope: { userorganisations: [org], wfstatus: 'all' },
      filters: { search: textSearchQuery('sommerfest')! },
      limit: 1,
    });
    expect(await found({ externalId: festival!.externalId! })).toEqual(['festival']);
    expect(await found({ externalId: 'feed-unknown' })).toEqual([]);
  });

  it('when userorganisation names another organisation than the scope, then nothing is listed [DEC-LIST-023]', async () => {
    expect(await found({ userorganisation: org })).toHaveLength(4);
    expect(await found({ userorganisation: 'org-other' })).toEqual([]);
  });

  it('when keywords or markers are asked, then items holding all of them and none of the !-ones are listed [DEC-LIST-029]', async () => {
    expect(await found({ keywords: { all: ['jazz', 'muziek'], none: [] } })).toEqual(['concert']);
    expect(await found({ keywords: { all: ['jazz', 'rock'], none: [] } })).toEqual([]);
    expect(await found({ markers: { all: ['new'], none: [] } })).toEqual(['concert', 'festival']);
    expect(await found({ markers: { all: ['new'], none: ['old'] } })).toEqual(['concert']);
    expect(await found({ markers: { all: [], none: ['old'] } })).toEqual(['concert', 'undated', 'weekly']);
  });

  it('when an event date range is asked, then events with a single date or a pattern day in it are listed [DEC-LIST-027]', async () => {
    expect(await found({ eventDays: { from: '2026-06-15', to: '2026-06-20' } })).toEqual(['festival']);
    // The concert's dates are 1 March and 31 December: none in June.
    expect(await found({ eventDays: { from: '2026-04-01', to: '2026-11-30' } })).toEqual(['festival']);
    expect(await found({ eventDays: { from: '2026-12-31', to: '2026-12-31' } })).toEqual(['concert']);
    expect(await found({ eventDays: { from: '2030-01-01' } })).toEqual(['weekly']);
    expect(await found({ eventDays: { to: '2026-03-01' } })).toEqual(['concert']);
    expect(await found({ eventDays: { from: '2026-07-01', to: '2026-06-01' } })).toEqual([]);
  });

  it('when deleted items are included, then they are listed with the others [DEC-LIST-030]', async () => {
    const rows = await listItems(ctx.db, {
      entitytype: 'EVENEMENT',
      scope: { userorganisations: [org], wfstatus: 'all' },
      includeDeleted: true,
      limit: 100,
    });
    expect(rows.map((row) => names.get(row.id)).sort()).toEqual(['concert', 'festival', 'gone', 'undated', 'weekly']);
  });
});
