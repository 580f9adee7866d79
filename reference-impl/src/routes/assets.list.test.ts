import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeImage, makePdf, uploadAsset } from '../../test/support/assets/assetFixtures.ts';
import { client, newTestAccount, type Client } from '../../test/support/items/itemsHarness.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';

interface Asset {
  id: string;
  filename: string;
  size: number;
  created: string;
  modified?: string;
  title?: string;
  description?: string;
  url: string;
}

describeEachEngine('GET /assets and PUT /assets/{id}', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine.db);
  });
  afterAll(() => app.close());

  /** A fresh account, so each test sees only its own assets. */
  async function freshAccount(): Promise<{ token: string; api: Client }> {
    const account = await newTestAccount(engine.db);
    return { token: account.full, api: client(app.baseUrl, account.full) };
  }

  /** Uploads at the instant `at` (the app's clock), a PDF of `size` bytes named `filename`. */
  async function uploadAt(token: string, at: string, filename = `f-${at}.pdf`, size = 400): Promise<Asset> {
    app.clock.set(Date.parse(at));
    try {
      const response = await uploadAsset(app.baseUrl, token, { bytes: makePdf(size), filename });
      expect(response.status).toBe(201);
      return (await response.json()) as Asset;
    } finally {
      app.clock.set(undefined);
    }
  }

  async function updateAt(
    api: Client,
    id: string,
    at: string,
    body: Record<string, unknown> = { title: `t ${at}` },
  ): Promise<Asset> {
    app.clock.set(Date.parse(at));
    try {
      const answer = await api.put(`/assets/${id}`, body);
      expect(answer.status).toBe(200);
      return answer.body as Asset;
    } finally {
      app.clock.set(undefined);
    }
  }

  const ids = (body: { results: Asset[] }) => body.results.map((asset) => asset.id);

  describe('the page', () => {
    it("when listed, then a page {size, page, hits, results[]} of the caller's account only, size 20 by default [ASSET-002, ASSET-004, DEC-ASSET-004, DEC-LIST-009]", async () => {
      const mine = await freshAccount();
      const other = await freshAccount();
      const a = await uploadAt(mine.token, '2026-03-01T10:00:00.000Z');
      const foreign = await uploadAt(other.token, '2026-03-01T10:00:00.000Z');
      const answer = await mine.api.get('/assets');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ size: 20, page: 0, hits: 1, results: [a] });
      expect(ids(answer.body)).not.toContain(foreign.id);
    });

    it('when size and page are given, then the page is that slice of the same order; size above 1000 or below 1 is a 400 [DEC-LIST-009]', async () => {
      const { token, api } = await freshAccount();
      const uploaded = [];
      for (let i = 0; i < 5; i++) uploaded.push(await uploadAt(token, `2026-03-0${i + 1}T10:00:00.000Z`));
      const page1 = await api.get('/assets?size=2&page=1&sortOrder=asc');
      expect(page1.body).toMatchObject({ size: 2, page: 1, hits: 5 });
      expect(ids(page1.body)).toEqual([uploaded[2]!.id, uploaded[3]!.id]);
      expect((await api.get('/assets?size=2&page=99999999999')).body).toMatchObject({ hits: 5, results: [] });
      expect((await api.get('/assets?size=1000')).status).toBe(200);
      expect((await api.get('/assets?size=1001')).status).toBe(400);
      expect((await api.get('/assets?size=0')).status).toBe(400);
      expect((await api.get('/assets?page=-1')).status).toBe(400);
    });

    it('when a query parameter is unknown, then 400 naming it [DEC-ASSET-006, DEC-LIST-008]', async () => {
      const { api } = await freshAccount();
      const answer = await api.get('/assets?sortfield=name');
      expect(answer.status).toBe(400);
      expect(answer.body.message).toContain('sortfield');
    });

    it('when listed many times at once with rate limiting on, then never 429 and no rate headers [RATE-005]', async () => {
      const limited = await startTestApp(engine.db, { env: { RATE_LIMIT_ENABLED: 'true' } });
      try {
        const { token } = await freshAccount();
        const answers = await Promise.all(
          Array.from({ length: 70 }, () =>
            fetch(`${limited.baseUrl}/assets?size=1`, { headers: { authorization: `Bearer ${token}` } }),
          ),
        );
        expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
        expect(answers[0]!.headers.get('x-ratelimit-limit')).toBeNull();
      } finally {
        await limited.close();
      }
    });
  });

  describe('lastupdated', () => {
    it('when given, then assets whose modified, else created, is at or after it are returned, inclusive [ASSET-008, ASSET-010]', async () => {
      const { token, api } = await freshAccount();
      const a = await uploadAt(token, '2026-08-01T10:00:00.000Z');
      const b = await uploadAt(token, '2026-08-02T10:00:00.000Z');
      await updateAt(api, a.id, '2026-08-03T10:00:00.000Z');
      const c = await uploadAt(token, '2026-08-04T10:00:00.000Z');
      await updateAt(api, c.id, '2026-08-05T10:00:00.000Z');

      const since = async (value: string) =>
        ids((await api.get(`/assets?sortField=date&sortOrder=asc&lastupdated=${encodeURIComponent(value)}`)).body);
      expect(await since('2026-08-02T10:00:00.000Z')).toEqual([a.id, b.id, c.id]);
      expect(await since('2026-08-02T10:00:00.001Z')).toEqual([a.id, c.id]);
      expect(await since('2026-08-03T10:00:00.000Z')).toEqual([a.id, c.id]);
      expect(await since('2026-08-03T10:00:00.001Z')).toEqual([c.id]);
      // c was created before this instant but modified after it: its modified counts.
      expect(await since('2026-08-04T12:00:00Z')).toEqual([c.id]);
      expect(await since('2026-08-05T10:00:00.001Z')).toEqual([]);
      expect((await api.get('/assets?lastupdated=2026-08-02T10:00:00Z')).body.hits).toBe(3);
    });

    it('when the value has no offset, then it is the same wall time in Europe/Amsterdam, summer and winter [ASSET-009, DEC-LIST-005]', async () => {
      const { token, api } = await freshAccount();
      const summer = await uploadAt(token, '2026-08-01T07:00:00.000Z'); // 09:00 in Amsterdam (CEST)
      const winter = await uploadAt(token, '2026-01-15T09:00:00.000Z'); // 10:00 in Amsterdam (CET)
      const since = async (value: string) =>
        ids((await api.get(`/assets?lastupdated=${encodeURIComponent(value)}`)).body);
      expect(await since('2026-08-01T09:00:00')).toEqual([summer.id]);
      expect(await since('2026-08-01T09:00:00.001')).toEqual([]);
      expect(await since('2026-08-01T09:00:00+02:00')).toEqual([summer.id]);
      expect(await since('2026-01-15T10:00:00')).toEqual([summer.id, winter.id]);
      expect(await since('2026-01-15T10:00:00.001')).toEqual([summer.id]);
    });

    it('when the value is a date, then it means the start of that day in Amsterdam [ASSET-008, DEC-LIST-005]', async () => {
      const { token, api } = await freshAccount();
      const before = await uploadAt(token, '2026-07-31T21:59:59.999Z');
      const midnight = await uploadAt(token, '2026-07-31T22:00:00.000Z'); // 2026-08-01T00:00 in Amsterdam
      const answer = await api.get('/assets?lastupdated=2026-08-01');
      expect(ids(answer.body)).toEqual([midnight.id]);
      expect(ids(answer.body)).not.toContain(before.id);
    });

    it('when the value cannot be read, then 400 naming lastupdated [ERR-002]', async () => {
      const { api } = await freshAccount();
      for (const value of ['last week', '2026-13-01', '2026-02-30', '1722500000']) {
        const answer = await api.get(`/assets?lastupdated=${encodeURIComponent(value)}`);
        expect(answer.status, value).toBe(400);
        expect(answer.body).toMatchObject({ status: 400, error: 'Bad Request' });
        expect(answer.body.details[0].pointer).toBe('query/lastupdated');
      }
    });
  });

  describe('sorting', () => {
    it('when sortField is date, name, size, modified or lastupdated, then that order; anything else sorts by date [ASSET-011]', async () => {
      const { token, api } = await freshAccount();
      const first = await uploadAt(token, '2026-05-01T10:00:00.000Z', 'charlie.pdf', 900);
      const second = await uploadAt(token, '2026-05-02T10:00:00.000Z', 'alpha.pdf', 300);
      const third = await uploadAt(token, '2026-05-03T10:00:00.000Z', 'bravo.pdf', 600);
      await updateAt(api, third.id, '2026-05-04T10:00:00.000Z');
      await updateAt(api, first.id, '2026-05-05T10:00:00.000Z');

      const order = async (query: string) => ids((await api.get(`/assets?${query}`)).body);
      expect(await order('sortOrder=asc')).toEqual([first.id, second.id, third.id]);
      expect(await order('sortField=date&sortOrder=asc')).toEqual([first.id, second.id, third.id]);
      expect(await order('sortField=name&sortOrder=asc')).toEqual([second.id, third.id, first.id]);
      expect(await order('sortField=size&sortOrder=asc')).toEqual([second.id, third.id, first.id]);
      expect(await order('sortField=modified&sortOrder=asc')).toEqual([second.id, third.id, first.id]);
      expect(await order('sortField=lastupdated&sortOrder=asc')).toEqual([second.id, third.id, first.id]);
      for (const unknown of ['title', 'created', 'NAME', 'drop table']) {
        expect(await order(`sortField=${encodeURIComponent(unknown)}&sortOrder=asc`), unknown).toEqual([
          first.id,
          second.id,
          third.id,
        ]);
      }
    });

    it('when sortOrder is absent or given in any case, then desc by default and asc/ASC/Desc as asked [ASSET-014, DEC-ASSET-006]', async () => {
      const { token, api } = await freshAccount();
      const a = await uploadAt(token, '2026-05-01T10:00:00.000Z');
      const b = await uploadAt(token, '2026-05-02T10:00:00.000Z');
      const order = async (query: string) => ids((await api.get(`/assets?${query}`)).body);
      expect(await order('')).toEqual([b.id, a.id]);
      for (const asc of ['asc', 'ASC', 'Asc']) expect(await order(`sortOrder=${asc}`)).toEqual([a.id, b.id]);
      for (const desc of ['desc', 'DESC', 'Desc']) expect(await order(`sortOrder=${desc}`)).toEqual([b.id, a.id]);
      expect((await api.get('/assets?sortOrder=up')).status).toBe(400);
    });

    it('when sorted by modified, then assets never modified are the least recently changed: first ascending, last descending [ASSET-012]', async () => {
      const { token, api } = await freshAccount();
      const modifiedEarly = await uploadAt(token, '2026-06-01T10:00:00.000Z');
      const neverA = await uploadAt(token, '2026-06-02T10:00:00.000Z');
      const neverB = await uploadAt(token, '2026-06-03T10:00:00.000Z');
      const modifiedLate = await uploadAt(token, '2026-06-04T10:00:00.000Z');
      await updateAt(api, modifiedLate.id, '2026-06-05T10:00:00.000Z');
      await updateAt(api, modifiedEarly.id, '2026-06-06T10:00:00.000Z');
      const never = [neverA.id, neverB.id].sort();

      const asc = ids((await api.get('/assets?sortField=modified&sortOrder=asc')).body);
      expect(asc).toEqual([...never, modifiedLate.id, modifiedEarly.id]);
      const desc = ids((await api.get('/assets?sortField=modified&sortOrder=desc')).body);
      expect(desc).toEqual([modifiedEarly.id, modifiedLate.id, ...never]);
    });

    it('when many assets share one timestamp, then paging in either order neither repeats nor drops one, ties by id ascending [ASSET-013, DEC-ASSET-006]', async () => {
      const { token, api } = await freshAccount();
      const same = '2026-07-01T12:00:00.000Z';
      const uploaded = [];
      for (let i = 0; i < 7; i++) uploaded.push(await uploadAt(token, same, 'same.pdf', 400));
      for (const asset of uploaded.slice(0, 3)) await updateAt(api, asset.id, '2026-07-02T12:00:00.000Z');
      const byId = uploaded.map((asset) => asset.id).sort();

      for (const query of [
        'sortField=date',
        'sortField=name',
        'sortField=size',
        'sortField=modified',
        'sortField=lastupdated',
      ]) {
        for (const sortOrder of ['asc', 'desc']) {
          const seen: string[] = [];
          for (let page = 0; page < 4; page++)
            seen.push(...ids((await api.get(`/assets?${query}&sortOrder=${sortOrder}&size=2&page=${page}`)).body));
          expect(seen.sort(), `${query} ${sortOrder}`).toEqual(byId);
        }
      }
      // Equal values: the id decides, ascending, whatever the direction.
      expect(ids((await api.get('/assets?sortField=date&sortOrder=desc&size=10')).body)).toEqual(byId);
      const modifiedDesc = ids((await api.get('/assets?sortField=modified&sortOrder=desc&size=10')).body);
      const touched = uploaded
        .slice(0, 3)
        .map((asset) => asset.id)
        .sort();
      const untouched = uploaded
        .slice(3)
        .map((asset) => asset.id)
        .sort();
      expect(modifiedDesc).toEqual([...touched, ...untouched]);
    });
  });

  describe('PUT /assets/{id}', () => {
    it('when metadata is sent, then title and description are replaced, filename kept when absent, and modified set [ASSET-007, ASSET-001, DEC-ASSET-002, DEC-ASSET-007]', async () => {
      const { token, api } = await freshAccount();
      const response = await uploadAsset(app.baseUrl, token, {
        bytes: await makeImage('png', 10, 10),
        filename: 'old.png',
        title: 'Old',
        description: 'Old text',
      });
      const asset = (await response.json()) as Asset;

      const renamed = await updateAt(api, asset.id, '2026-09-01T08:00:00.000Z', {
        filename: 'nieuw naam.png',
        title: 'Nieuw',
      });
      expect(renamed).toMatchObject({
        id: asset.id,
        filename: 'nieuw naam.png',
        title: 'Nieuw',
        modified: '2026-09-01T08:00:00.000Z',
        created: asset.created,
        size: asset.size,
      });
      expect(renamed.description).toBeUndefined();
      expect(renamed.url).toBe(`${app.config.publicBaseUrl}/assets/${asset.id}/nieuw%20naam.png`);

      const kept = await updateAt(api, asset.id, '2026-09-02T08:00:00.000Z', { description: 'Alleen tekst' });
      expect(kept).toMatchObject({
        filename: 'nieuw naam.png',
        description: 'Alleen tekst',
        modified: '2026-09-02T08:00:00.000Z',
      });
      expect(kept.title).toBeUndefined();

      // The file answers under the old and the new name alike (DEC-ASSET-005).
      for (const name of ['old.png', 'nieuw%20naam.png', 'anything-else']) {
        expect(
          (await fetch(`${app.baseUrl}/assets/${asset.id}/${name}`, { headers: { authorization: `Bearer ${token}` } }))
            .status,
        ).toBe(200);
      }
    });

    it('when the asset as read is sent back with a change, then the read-only fields are ignored [DEC-ASSET-002]', async () => {
      const { token, api } = await freshAccount();
      const asset = await uploadAt(token, '2026-09-01T08:00:00.000Z');
      const answer = await api.put(`/assets/${asset.id}`, {
        ...asset,
        size: 1,
        created: '2000-01-01T00:00:00.000Z',
        title: 'Changed',
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ size: asset.size, created: asset.created, title: 'Changed' });
    });

    it('when a field is unknown or the filename has a slash, then 400 and nothing changes [DEC-ASSET-007]', async () => {
      const { token, api } = await freshAccount();
      const asset = await uploadAt(token, '2026-09-01T08:00:00.000Z');
      const unknown = await api.put(`/assets/${asset.id}`, { title: 'x', owner: 'y' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toContain('owner');
      for (const filename of ['a/b.pdf', 'a\\b.pdf', 'a\nb.pdf', '', 'x'.repeat(256)]) {
        expect((await api.put(`/assets/${asset.id}`, { filename })).status, JSON.stringify(filename)).toBe(400);
      }
      expect((await api.put(`/assets/${asset.id}`, { title: 'x'.repeat(501) })).status).toBe(400);
      expect((await api.get('/assets')).body.results[0]).toEqual(asset);
    });

    it('when the asset belongs to another account or does not exist, then 404; its file still serves to any token [DEC-ASSET-004, DEC-ERR-002]', async () => {
      const owner = await freshAccount();
      const stranger = await freshAccount();
      const asset = await uploadAt(owner.token, '2026-09-01T08:00:00.000Z', 'private.pdf');
      const answer = await stranger.api.put(`/assets/${asset.id}`, { title: 'mine now' });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ status: 404, error: 'Not Found', message: `No asset with id ${asset.id}` });
      expect((await stranger.api.put('/assets/00000000-0000-4000-8000-000000000000', { title: 'x' })).status).toBe(404);
      expect((await owner.api.get('/assets')).body.results[0].title).toBeUndefined();
      const file = await fetch(`${app.baseUrl}/assets/${asset.id}/private.pdf`, {
        headers: { authorization: `Bearer ${stranger.token}` },
      });
      expect(file.status).toBe(200);
    });
  });
});
