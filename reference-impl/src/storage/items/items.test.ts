import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { EntityType } from '../../domain/entityRules.ts';
import { prepareItemWrite } from '../../domain/itemWrite.ts';
import { stripCategoriesForWrite } from '../../dictionary/stripCategoriesForWrite.ts';
import type { StoredWfStatus } from '../../domain/workflow.ts';
import { UniqueViolationError } from '../errors.ts';
import { describeEachEngine } from '../../../test/support/storage/testDb.ts';
import { getItemByExternalId } from './getItemByExternalId.ts';
import { getItemById } from './getItemById.ts';
import { ITEM_EXTERNAL_ID_CONSTRAINT, ITEM_TRCID_CONSTRAINT, insertItem, type InsertItemParams } from './insertItem.ts';
import { listItems, type ListItemsParams } from './listItems.ts';
import { updateItem } from './updateItem.ts';

function draft(overrides: Partial<InsertItemParams> = {}): InsertItemParams {
  return {
    trcid: `trc-${randomUUID()}`,
    entitytype: 'EVENEMENT',
    wfstatus: 'approved',
    userorganisation: 'org-default',
    externalId: null,
    title: 'Concert',
    slug: null,
    doc: { trcItemDetails: [{ lang: 'nl', title: 'Concert' }] },
    ...overrides,
  };
}

const org = () => `org-${randomUUID().slice(0, 8)}`;
const everything = (userorganisation: string): ListItemsParams['scope'] => ({
  userorganisations: [userorganisation],
  wfstatus: 'all',
});

describeEachEngine('item storage', (ctx) => {
  it('when an item is inserted, then it comes back with its server columns and document [ITEM-005] [ITEM-006]', async () => {
    const params = draft({
      externalId: `feed:${randomUUID()}`,
      slug: 'concert',
      doc: { calendar: { calendarType: 'NONE' }, trcItemDetails: [] },
    });
    const before = Date.now();
    const stored = await insertItem(ctx.db, params);
    expect(stored).toMatchObject({
      trcid: params.trcid,
      entitytype: 'EVENEMENT',
      wfstatus: 'approved',
      userorganisation: 'org-default',
      externalId: params.externalId,
      title: 'Concert',
      slug: 'concert',
      doc: params.doc,
    });
    expect(stored.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored.lastupdated).toBeInstanceOf(Date);
    expect(stored.creationdate.getTime()).toBe(stored.lastupdated.getTime());
    expect(stored.lastupdated.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    expect(await getItemById(ctx.db, { entitytype: 'EVENEMENT', id: stored.id })).toEqual(stored);
    expect(await getItemByExternalId(ctx.db, { externalId: params.externalId! })).toEqual(stored);
  });

  it('when an item is read through another collection, by a malformed id or an unknown one, then it is not found [ITEM-028]', async () => {
    const stored = await insertItem(ctx.db, draft());
    expect(await getItemById(ctx.db, { entitytype: 'LOCATIE', id: stored.id })).toBeNull();
    expect(await getItemById(ctx.db, { entitytype: 'EVENEMENT', id: 'not-a-uuid' })).toBeNull();
    expect(await getItemById(ctx.db, { entitytype: 'EVENEMENT', id: randomUUID() })).toBeNull();
    expect(await getItemByExternalId(ctx.db, { externalId: 'feed:none' })).toBeNull();
  });

  it('when a trcid or externalId is taken, then the insert fails with a UniqueViolationError naming the key [DEC-ITEM-006]', async () => {
    const first = await insertItem(ctx.db, draft({ externalId: `feed:${randomUUID()}` }));
    const trcidClash = await insertItem(ctx.db, draft({ trcid: first.trcid })).catch((e: unknown) => e);
    expect(trcidClash).toBeInstanceOf(UniqueViolationError);
    expect((trcidClash as UniqueViolationError).constraint).toBe(ITEM_TRCID_CONSTRAINT);
    const externalClash = await insertItem(ctx.db, draft({ externalId: first.externalId })).catch((e: unknown) => e);
    expect((externalClash as UniqueViolationError).constraint).toBe(ITEM_EXTERNAL_ID_CONSTRAINT);
  });

  it('when an item is updated, then its fields are replaced, creationdate kept and lastupdated advanced [DEC-ITEM-001] [DEC-ITEM-009]', async () => {
    const stored = await insertItem(ctx.db, draft({ doc: { performers: [{ label: 'A' }], calendar: {} } }));
    const updated = await updateItem(ctx.db, {
      id: stored.id,
      entitytype: 'EVENEMENT',
      trcid: stored.trcid,
      wfstatus: 'archived',
      userorganisation: 'org-other',
      externalId: null,
      title: 'Nieuw',
      slug: 'nieuw',
      doc: { performers: [{ label: 'B' }] },
    });
    expect(updated).toMatchObject({
      id: stored.id,
      wfstatus: 'archived',
      userorganisation: 'org-other',
      title: 'Nieuw',
      slug: 'nieuw',
      doc: { performers: [{ label: 'B' }] },
    });
    expect(updated!.doc).not.toHaveProperty('calendar');
    expect(updated!.creationdate).toEqual(stored.creationdate);
    expect(updated!.lastupdated.getTime()).toBeGreaterThan(stored.lastupdated.getTime());
    expect(await getItemById(ctx.db, { entitytype: 'EVENEMENT', id: stored.id })).toEqual(updated);
  });

  it('when the item to update does not exist in that collection, then updateItem answers null', async () => {
    const stored = await insertItem(ctx.db, draft());
    const fields = {
      trcid: stored.trcid,
      wfstatus: 'approved' as const,
      userorganisation: 'x',
      externalId: null,
      title: null,
      slug: null,
      doc: {},
    };
    expect(await updateItem(ctx.db, { ...fields, id: stored.id, entitytype: 'ROUTE' })).toBeNull();
    expect(await updateItem(ctx.db, { ...fields, id: randomUUID(), entitytype: 'EVENEMENT' })).toBeNull();
    expect(await updateItem(ctx.db, { ...fields, id: 'nope', entitytype: 'EVENEMENT' })).toBeNull();
    expect((await getItemById(ctx.db, { entitytype: 'EVENEMENT', id: stored.id }))!.userorganisation).toBe(
      'org-default',
    );
  });

  it("when listing, then only the collection's entity type within the organisation scope is returned [ITEM-028] [AUTH-004]", async () => {
    const mine = org(),
      theirs = org();
    const event = await insertItem(ctx.db, draft({ userorganisation: mine }));
    await insertItem(ctx.db, draft({ userorganisation: mine, entitytype: 'LOCATIE' }));
    await insertItem(ctx.db, draft({ userorganisation: theirs }));
    const list = await listItems(ctx.db, { entitytype: 'EVENEMENT', scope: everything(mine), limit: 100 });
    expect(list.map((i) => i.id)).toEqual([event.id]);
    const none = await listItems(ctx.db, {
      entitytype: 'EVENEMENT',
      scope: { userorganisations: [], wfstatus: 'all' },
      limit: 100,
    });
    expect(none).toEqual([]);
    const all = await listItems(ctx.db, {
      entitytype: 'EVENEMENT',
      scope: { userorganisations: 'all', wfstatus: 'all' },
      trcid: event.trcid,
      limit: 100,
    });
    expect(all.map((i) => i.id)).toEqual([event.id]);
  });

  it('when filtering on status, then the default hides deleted, requests intersect the scope and published narrows [DEC-LIST-006] [DEC-LIST-007] [SCOPE-001] [AUTH-005]', async () => {
    const o = org();
    for (const wfstatus of ['readyforvalidation', 'approved', 'rejected', 'archived', 'deleted'] as StoredWfStatus[]) {
      await insertItem(ctx.db, draft({ userorganisation: o, wfstatus }));
    }
    const statuses = async (params: Partial<ListItemsParams>) =>
      (
        await listItems(ctx.db, {
          entitytype: 'EVENEMENT',
          scope: everything(o),
          limit: 100,
          sortField: 'wfstatus',
          sortOrder: 'ASC',
          ...params,
        })
      ).map((i) => i.wfstatus);

    expect(await statuses({})).toEqual(['approved', 'archived', 'readyforvalidation', 'rejected']);
    expect(await statuses({ wfstatus: ['approved', 'archived', 'deleted'] })).toEqual([
      'approved',
      'archived',
      'deleted',
    ]);
    const liveOnly = { userorganisations: [o], wfstatus: ['approved'] };
    expect(await statuses({ scope: liveOnly })).toEqual(['approved']);
    expect(await statuses({ scope: liveOnly, wfstatus: ['approved', 'archived', 'deleted'] })).toEqual(['approved']);
    expect(await statuses({ scope: liveOnly, wfstatus: ['deleted'] })).toEqual([]);
    expect(await statuses({ published: true })).toEqual(['approved']);
    expect(await statuses({ published: false })).toEqual(['archived', 'readyforvalidation', 'rejected']);
    expect(await statuses({ published: false, wfstatus: ['approved', 'deleted'] })).toEqual(['deleted']);
  });

  it('when filtering on lastupdated, then the bound is inclusive to the millisecond [FILTER-001] [PAGE-004]', async () => {
    const o = org();
    const [a, b, c] = [
      await insertItem(ctx.db, draft({ userorganisation: o })),
      await insertItem(ctx.db, draft({ userorganisation: o })),
      await insertItem(ctx.db, draft({ userorganisation: o })),
    ];
    const from = async (at: number) =>
      (
        await listItems(ctx.db, {
          entitytype: 'EVENEMENT',
          scope: everything(o),
          lastupdatedFrom: new Date(at),
          sortOrder: 'ASC',
          limit: 10,
        })
      ).map((i) => i.id);
    expect(await from(b!.lastupdated.getTime())).toEqual([b!.id, c!.id]);
    expect(await from(b!.lastupdated.getTime() + 1)).toEqual([c!.id]);
    expect(await from(a!.lastupdated.getTime() - 1)).toEqual([a!.id, b!.id, c!.id]);
    expect(await from(c!.lastupdated.getTime() + 1)).toEqual([]);
  });

  it('when sorting on any sort field either way, then ties are broken by id ascending [DEC-LIST-003] [SORT-001] [SORT-003]', async () => {
    const o = org();
    const items = [];
    for (const title of ['b', 'a', 'b', null, 'a', 'b'])
      items.push(await insertItem(ctx.db, draft({ userorganisation: o, title, slug: title })));
    const byId = (x: { id: string }, y: { id: string }) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
    for (const sortOrder of ['ASC', 'DESC'] as const) {
      const listed = await listItems(ctx.db, {
        entitytype: 'EVENEMENT',
        scope: everything(o),
        sortField: 'title',
        sortOrder,
        limit: 100,
      });
      const expected = [...items].sort((x, y) => {
        // PostgreSQL's default: NULLs sort as larger than every value (last ASC, first DESC).
        const key = (t: string | null) => (t === null ? '\uffff' : t);
        const cmp = key(x.title) < key(y.title) ? -1 : key(x.title) > key(y.title) ? 1 : 0;
        return (sortOrder === 'ASC' ? cmp : -cmp) || byId(x, y);
      });
      expect(listed.map((i) => i.id)).toEqual(expected.map((i) => i.id));
    }
    const byIdDesc = await listItems(ctx.db, {
      entitytype: 'EVENEMENT',
      scope: everything(o),
      sortField: 'id',
      sortOrder: 'DESC',
      limit: 100,
    });
    expect(byIdDesc.map((i) => i.id)).toEqual(
      [...items]
        .sort(byId)
        .reverse()
        .map((i) => i.id),
    );
    for (const sortField of [
      'creationdate',
      'trcid',
      'slug',
      'wfstatus',
      'entitytype',
      'userorganisation',
      'externalId',
    ] as const) {
      const listed = await listItems(ctx.db, {
        entitytype: 'EVENEMENT',
        scope: everything(o),
        sortField,
        sortOrder: 'DESC',
        limit: 100,
      });
      expect(listed).toHaveLength(items.length);
    }
  });

  it('when the default sort is used, then the newest change comes first [SORT-002] [SORT-003]', async () => {
    const o = org();
    const first = await insertItem(ctx.db, draft({ userorganisation: o }));
    const second = await insertItem(ctx.db, draft({ userorganisation: o }));
    const listed = await listItems(ctx.db, { entitytype: 'EVENEMENT', scope: everything(o), limit: 10 });
    expect(listed.map((i) => i.id)).toEqual([second.id, first.id]);
  });

  it('when paging with limit and offset, then pages are disjoint and together complete [DEC-LIST-002] [PAGE-001]', async () => {
    const o = org();
    for (let i = 0; i < 7; i++)
      await insertItem(ctx.db, draft({ userorganisation: o, title: i % 2 === 0 ? 'same' : 'other' }));
    const all = await listItems(ctx.db, {
      entitytype: 'EVENEMENT',
      scope: everything(o),
      sortField: 'title',
      sortOrder: 'ASC',
      limit: 100,
    });
    const pages = [];
    for (let page = 0; page < 4; page++)
      pages.push(
        ...(await listItems(ctx.db, {
          entitytype: 'EVENEMENT',
          scope: everything(o),
          sortField: 'title',
          sortOrder: 'ASC',
          limit: 2,
          offset: page * 2,
        })),
      );
    expect(pages.map((i) => i.id)).toEqual(all.map((i) => i.id));
    expect(new Set(pages.map((i) => i.id)).size).toBe(7);
  });

  it('when the paging arguments are not whole numbers, then listItems refuses them', async () => {
    const base = { entitytype: 'EVENEMENT' as EntityType, scope: everything('x') };
    await expect(listItems(ctx.db, { ...base, limit: -1 })).rejects.toThrow(RangeError);
    await expect(listItems(ctx.db, { ...base, limit: 1, offset: 1.5 })).rejects.toThrow(RangeError);
    await expect(listItems(ctx.db, { ...base, limit: 1, sortField: 'doc' as never })).rejects.toThrow(RangeError);
  });

  it('when a prepared write is stored and replaced, then storage keeps exactly the prepared columns and document [DEC-ITEM-001] [WRITE-002]', async () => {
    const token = { organisations: ['org-write'], accountOrganisations: ['org-write'] };
    const body = {
      trcItemDetails: [{ lang: 'nl', title: 'Zomerconcert' }],
      calendar: { calendarType: 'none' },
      isprivate: true,
    };
    const created = await insertItem(
      ctx.db,
      prepareItemWrite({ collection: 'venues', body, token, stripCategories: stripCategoriesForWrite }),
    );
    expect(created).toMatchObject({
      entitytype: 'VENUE',
      wfstatus: 'readyforvalidation',
      userorganisation: 'org-write',
      title: 'Zomerconcert',
    });
    expect(created.doc).toEqual({
      trcItemDetails: [{ lang: 'nl', title: 'Zomerconcert' }],
      calendar: { calendarType: 'NONE' },
    });
    const replacement = prepareItemWrite({
      collection: 'venues',
      body: { wfstatus: 'approved', trcItemCategories: { categories: [{ catid: 'p-1501', value: '10' }] } },
      token,
      existing: created,
      stripCategories: stripCategoriesForWrite,
    });
    const updated = await updateItem(ctx.db, { ...replacement, id: created.id });
    expect(updated).toMatchObject({
      id: created.id,
      trcid: created.trcid,
      wfstatus: 'approved',
      title: null,
      doc: { trcItemCategories: { types: [], categories: [{ catid: 'p-1501', value: '10' }] } },
    });
  });
});
