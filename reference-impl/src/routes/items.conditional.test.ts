import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventBody, newTestAccount, type TestAccount } from '../../test/support/items/itemsHarness.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';
import { refreshRenderings } from '../items/renderingRefresher.ts';
import { createOntologyCache } from '../dictionary/ontologyCache.ts';

// Optimistic concurrency on items (DEC-ITEM-031): strong ETags, If-Match on writes, If-None-Match
// on detail reads. The attack that found the gap: 50 concurrent read-modify-write appends to one
// item, 1 of 50 survived on both engines.

const STRONG_TAG = /^"[A-Za-z0-9_-]{27}"$/;

/** A property ontology labelling p-1001 with `label`. */
function ontology(label: string) {
  return {
    propertyCategories: [
      {
        id: 'pc-9001',
        name: 'Eigen',
        datatype: 'yes',
        propertytranslations: [{ lang: 'nl', text: 'Eigen' }],
        properties: [
          { id: 'p-1001', name: label, datatype: 'yesno', propertytranslations: [{ lang: 'nl', text: label }] },
        ],
      },
    ],
  };
}

describeEachEngine('conditional item requests', (ctx) => {
  let app: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    account = await newTestAccount(ctx.db);
  });
  afterAll(() => app.close());
  const api = () => client(app.baseUrl, account.full);
  const created = async (overrides: Record<string, unknown> = {}) => {
    const answer = await api().post('/events', eventBody({ wfstatus: 'approved', ...overrides }));
    expect(answer.status).toBe(201);
    return { id: answer.body.id as string, etag: answer.headers.get('etag')!, body: answer.body };
  };
  const title = (body: any) => body.trcItemDetails[0].title as string;

  describe('ETag', () => {
    it('when an item is created, read and replaced, then each answer carries the strong tag a detail read has then [DEC-ITEM-031]', async () => {
      const item = await created();
      expect(item.etag).toMatch(STRONG_TAG);
      const read = await api().get(`/events/${item.id}`);
      expect(read.headers.get('etag')).toBe(item.etag);
      const head = await fetch(`${app.baseUrl}/events/${item.id}`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${account.full}` },
      });
      expect(head.headers.get('etag')).toBe(item.etag);

      const replaced = await api().put(`/events/${item.id}`, {
        ...read.body,
        trcItemDetails: [{ lang: 'nl', title: 'Nieuw' }],
      });
      expect(replaced.status).toBe(200);
      expect(replaced.headers.get('etag')).toMatch(STRONG_TAG);
      expect(replaced.headers.get('etag')).not.toBe(item.etag);
      expect((await api().get(`/events/${item.id}`)).headers.get('etag')).toBe(replaced.headers.get('etag'));
    });

    it("when the owner's property ontology renames a label, then the item's bytes and its tag change, and the old tag no longer writes [DEC-ITEM-031] [ONTO-006]", async () => {
      const item = await created({ trcItemCategories: { categories: [{ catid: 'p-1001', value: 'true' }] } });
      const admin = client(app.baseUrl, account.admin);
      const cache = createOntologyCache(ctx.db);
      expect(
        (await admin.put(`/dictionary/propertiesOntology?accountId=${account.accountId}`, ontology('Een'))).status,
      ).toBe(200);
      await refreshRenderings(ctx.db, cache);
      const before = await api().get(`/events/${item.id}`);
      expect(before.body.trcItemCategories.categories[0].categoryTranslations[0].label).toBe('Een');

      expect(
        (await admin.put(`/dictionary/propertiesOntology?accountId=${account.accountId}`, ontology('Twee'))).status,
      ).toBe(200);
      // Rendered live (the stored rendering is stale), then from the renewed stored rendering: one tag.
      const live = await api().get(`/events/${item.id}`);
      expect(live.body.trcItemCategories.categories[0].categoryTranslations[0].label).toBe('Twee');
      expect(live.headers.get('etag')).not.toBe(before.headers.get('etag'));
      await refreshRenderings(ctx.db, cache);
      const stored = await api().get(`/events/${item.id}`);
      expect(stored.headers.get('etag')).toBe(live.headers.get('etag'));
      expect(JSON.stringify(stored.body)).toBe(JSON.stringify(live.body));

      const stale = await api().call('PUT', `/events/${item.id}`, before.body, {
        'if-match': before.headers.get('etag')!,
      });
      expect(stale.status).toBe(412);
    });
  });

  describe('If-None-Match on GET /events/{id}', () => {
    it('when it holds the current tag (or *), then 304 with the tag and no body; another tag reads the item [DEC-ITEM-031]', async () => {
      const item = await created();
      for (const header of [item.etag, `W/${item.etag}`, `"other", ${item.etag}`, '*']) {
        const answer = await api().call('GET', `/events/${item.id}`, undefined, { 'if-none-match': header });
        expect(answer.status).toBe(304);
        expect(answer.body).toBeUndefined();
        expect(answer.headers.get('etag')).toBe(item.etag);
      }
      const other = await api().call('GET', `/events/${item.id}`, undefined, { 'if-none-match': '"other"' });
      expect(other.status).toBe(200);
      expect(other.body.id).toBe(item.id);
    });

    it('when the item is not visible to the token, then 404 whatever the header says [DEC-ITEM-031] [DEC-ITEM-004]', async () => {
      const item = await created({ wfstatus: 'readyforvalidation' });
      const live = client(app.baseUrl, account.live);
      expect((await live.call('GET', `/events/${item.id}`, undefined, { 'if-none-match': '*' })).status).toBe(404);
    });
  });

  describe('If-Match on PUT and DELETE', () => {
    it('when it does not match (another tag, a weak tag, an unquoted value), then 412 in the error shape and nothing changes [DEC-ITEM-031] [DEC-ERR-001]', async () => {
      const item = await created();
      for (const header of ['"nope"', `W/${item.etag}`, 'nope']) {
        const put = await api().call(
          'PUT',
          `/events/${item.id}`,
          { ...item.body, trcItemDetails: [{ lang: 'nl', title: 'Weg' }] },
          { 'if-match': header },
        );
        expect(put.status).toBe(412);
        expect(put.body).toMatchObject({ status: 412, error: 'Precondition Failed' });
        expect(put.body.message).toContain('If-Match');
        const del = await api().call('DELETE', `/events/${item.id}`, undefined, { 'if-match': header });
        expect(del.status).toBe(412);
      }
      const read = await api().get(`/events/${item.id}`);
      expect(read.status).toBe(200);
      expect(title(read.body)).toBe(title(item.body));
      expect(read.headers.get('etag')).toBe(item.etag);
    });

    it('when it holds the current tag or *, then the write happens; the tag of the answer writes next, the old one no more [DEC-ITEM-031]', async () => {
      const item = await created();
      const first = await api().call(
        'PUT',
        `/events/${item.id}`,
        { ...item.body, trcItemDetails: [{ lang: 'nl', title: 'Een' }] },
        { 'if-match': item.etag },
      );
      expect(first.status).toBe(200);
      const again = await api().call('PUT', `/events/${item.id}`, item.body, { 'if-match': item.etag });
      expect(again.status).toBe(412);
      const second = await api().call(
        'PUT',
        `/events/${item.id}`,
        { ...first.body, trcItemDetails: [{ lang: 'nl', title: 'Twee' }] },
        { 'if-match': `"x", ${first.headers.get('etag')}` },
      );
      expect(second.status).toBe(200);
      const star = await api().call(
        'PUT',
        `/events/${item.id}`,
        { ...second.body, trcItemDetails: [{ lang: 'nl', title: 'Drie' }] },
        { 'if-match': '*' },
      );
      expect(star.status).toBe(200);
      expect(title((await api().get(`/events/${item.id}`)).body)).toBe('Drie');
      const del = await api().call('DELETE', `/events/${item.id}`, undefined, {
        'if-match': star.headers.get('etag')!,
      });
      expect(del.status).toBe(204);
    });

    it('when the item is deleted, then * does not match (no current representation) but a write without If-Match restores it [DEC-ITEM-031] [DEC-ITEM-004]', async () => {
      const item = await created();
      expect((await api().delete(`/events/${item.id}`)).status).toBe(204);
      expect(
        (await api().call('PUT', `/events/${item.id}`, { ...item.body, wfstatus: 'approved' }, { 'if-match': '*' }))
          .status,
      ).toBe(412);
      expect((await api().put(`/events/${item.id}`, { ...item.body, wfstatus: 'approved' })).status).toBe(200);
    });

    it('when the item does not exist or is out of scope, then 404 comes before the precondition [DEC-ITEM-031] [DEC-ITEM-029]', async () => {
      const item = await created({ wfstatus: 'readyforvalidation' });
      const other = await newTestAccount(ctx.db);
      const stranger = client(app.baseUrl, other.full);
      expect((await stranger.call('PUT', `/events/${item.id}`, {}, { 'if-match': item.etag })).status).toBe(404);
      expect((await stranger.call('DELETE', `/events/${item.id}`, undefined, { 'if-match': '"nope"' })).status).toBe(
        404,
      );
    });

    it('when writes send no If-Match, then they are unconditional, as before [DEC-ITEM-031] [DEC-ITEM-001]', async () => {
      const item = await created();
      expect(
        (await api().put(`/events/${item.id}`, { ...item.body, trcItemDetails: [{ lang: 'nl', title: 'A' }] })).status,
      ).toBe(200);
      expect(
        (await api().put(`/events/${item.id}`, { ...item.body, trcItemDetails: [{ lang: 'nl', title: 'B' }] })).status,
      ).toBe(200);
      expect(title((await api().get(`/events/${item.id}`)).body)).toBe('B');
    });

    it('when 50 writers append to one item at once, each reading, appending and writing back with If-Match and retrying on 412, then every append survives [DEC-ITEM-031]', async () => {
      const item = await created({ trcItemDetails: [{ lang: 'nl', title: 'Appends', longdescription: 'start' }] });
      const writers = 50;
      let conflicts = 0;
      const append = async (marker: string) => {
        for (let attempt = 1; attempt <= 200; attempt++) {
          const read = await api().get(`/events/${item.id}`);
          const detail = read.body.trcItemDetails[0];
          const body = {
            ...read.body,
            trcItemDetails: [{ ...detail, longdescription: `${detail.longdescription} ${marker}` }],
          };
          const put = await api().call('PUT', `/events/${item.id}`, body, { 'if-match': read.headers.get('etag')! });
          if (put.status === 200) return;
          expect(put.status).toBe(412);
          conflicts++;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * Math.min(attempt, 5)));
        }
        throw new Error(`writer ${marker} gave up`);
      };
      await Promise.all(Array.from({ length: writers }, (_, i) => append(`w${i}.`)));
      const text: string = (await api().get(`/events/${item.id}`)).body.trcItemDetails[0].longdescription;
      const markers = text.split(' ').slice(1).sort();
      expect(markers).toEqual(Array.from({ length: writers }, (_, i) => `w${i}.`).sort());
      expect(conflicts).toBeGreaterThan(0); // they did overlap: without If-Match these would have been lost updates
    }, 180_000);
  });
});
