import { afterAll, beforeAll, expect, it } from 'vitest';
import { makePdf, uploadAsset } from '../../test/support/assets/assetFixtures.ts';
import { client, newTestAccount } from '../../test/support/items/itemsHarness.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';

// Optimistic concurrency on asset metadata (DEC-ASSET-011): the tag comes with the answers that
// write it, and PUT /assets/{id} honours If-Match.

describeEachEngine('conditional PUT /assets/{id}', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine.db);
  });
  afterAll(() => app.close());

  it('when uploaded and updated, then each answer carries a strong tag; If-Match with it writes, a stale or foreign one is a 412 that changes nothing [DEC-ASSET-011]', async () => {
    const account = await newTestAccount(engine.db);
    const api = client(app.baseUrl, account.full);
    const upload = await uploadAsset(app.baseUrl, account.full, { bytes: makePdf(), filename: 'plan.pdf' });
    expect(upload.status).toBe(201);
    const uploaded = (await upload.json()) as { id: string };
    const tag = upload.headers.get('etag')!;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);

    const first = await api.call('PUT', `/assets/${uploaded.id}`, { title: 'Een' }, { 'if-match': tag });
    expect(first.status).toBe(200);
    const next = first.headers.get('etag')!;
    expect(next).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(next).not.toBe(tag);

    for (const header of [tag, '"nope"', `W/${next}`]) {
      const stale = await api.call('PUT', `/assets/${uploaded.id}`, { title: 'Twee' }, { 'if-match': header });
      expect(stale.status).toBe(412);
      expect(stale.body).toMatchObject({ status: 412, error: 'Precondition Failed' });
    }
    const listed = (await api.get('/assets')).body.results.find((a: { id: string }) => a.id === uploaded.id);
    expect(listed.title).toBe('Een');

    expect((await api.call('PUT', `/assets/${uploaded.id}`, { title: 'Drie' }, { 'if-match': next })).status).toBe(200);
    expect((await api.put(`/assets/${uploaded.id}`, { title: 'Vier' })).status).toBe(200); // no If-Match: as before
    const stranger = client(app.baseUrl, (await newTestAccount(engine.db)).full);
    expect((await stranger.call('PUT', `/assets/${uploaded.id}`, { title: 'X' }, { 'if-match': '*' })).status).toBe(
      404,
    );
  });
});
