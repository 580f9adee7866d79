import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeImage, makePdf, uploadAsset } from '../../test/support/assets/assetFixtures.ts';
import { responseProblems } from '../../test/support/items/responseSchemas.ts';
import { client, newTestAccount } from '../../test/support/items/itemsHarness.ts';
import { createTestUser } from '../../test/support/sessions/testUsers.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';

// Every answer of the asset and session operations, checked against the spec's response schemas:
// what the conformance suite will check against a deployment.

describeEachEngine('asset and session answers match the spec', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine.db, { env: { ASSET_MAX_BYTES: '5000' } });
  });
  afterAll(() => app.close());

  it('when assets are uploaded, listed, updated and refused, then each body fits its response schema [ASSET-001, ASSET-002, DEC-ERR-001]', async () => {
    const account = await newTestAccount(engine.db);
    const api = client(app.baseUrl, account.full);
    const created = await uploadAsset(app.baseUrl, account.full, {
      bytes: await makeImage('png', 20, 10),
      filename: 'a b.png',
      title: 'T',
    });
    const asset = (await created.json()) as { id: string };
    expect(responseProblems('uploadAsset', 201, asset)).toEqual([]);
    await uploadAsset(app.baseUrl, account.full, { bytes: makePdf(), filename: 'doc.pdf' });

    const answers: [string, number, unknown][] = [
      ['listAssets', 200, (await api.get('/assets?sortField=modified&sortOrder=ASC')).body],
      ['updateAsset', 200, (await api.put(`/assets/${asset.id}`, { description: 'D' })).body],
      ['listAssets', 400, (await api.get('/assets?lastupdated=yesterday')).body],
      ['updateAsset', 400, (await api.put(`/assets/${asset.id}`, { filename: 'a/b' })).body],
      ['updateAsset', 404, (await api.put('/assets/00000000-0000-4000-8000-000000000000', {})).body],
      ['uploadAsset', 413, await (await uploadAsset(app.baseUrl, account.full, { bytes: makePdf(6000) })).json()],
      ['uploadAsset', 415, await (await uploadAsset(app.baseUrl, account.full, { bytes: Buffer.from('text') })).json()],
      ['getAssetFile', 400, (await api.get(`/assets/${asset.id}/a.png?w=0`)).body],
      ['getAssetFile', 404, (await api.get('/assets/00000000-0000-4000-8000-000000000000/a.png')).body],
    ];
    for (const [operation, status, body] of answers)
      expect(responseProblems(operation, status, body), `${operation} ${status}`).toEqual([]);
  });

  it('when a user signs in, refreshes, is refused and logs out, then each body fits its response schema [SESSION-001, SESSION-002]', async () => {
    const account = await newTestAccount(engine.db);
    const user = await createTestUser(engine.db, { accountId: account.accountId });
    const anonymous = client(app.baseUrl);
    const signedIn = (await anonymous.post('/auth/signin', { username: user.username, password: user.password })).body;
    const refreshed = (await anonymous.post('/auth/refresh', { refresh_token: signedIn.refresh_token })).body;
    const answers: [string, number, unknown][] = [
      ['signIn', 200, signedIn],
      ['refreshSession', 200, refreshed],
      ['signIn', 401, (await anonymous.post('/auth/signin', { username: user.username, password: 'wrong' })).body],
      ['signIn', 400, (await anonymous.post('/auth/signin', { username: user.username })).body],
      ['refreshSession', 401, (await anonymous.post('/auth/refresh', { refresh_token: signedIn.refresh_token })).body],
      ['signOut', 400, (await client(app.baseUrl, account.full).post('/auth/logout', {})).body],
    ];
    const next = (await anonymous.post('/auth/signin', { username: user.username, password: user.password })).body;
    answers.push(['signOut', 200, (await client(app.baseUrl, next.access_token).post('/auth/logout', {})).body]);
    answers.push(['signOut', 401, (await client(app.baseUrl, next.access_token).post('/auth/logout', {})).body]);
    for (const [operation, status, body] of answers)
      expect(responseProblems(operation, status, body), `${operation} ${status}`).toEqual([]);
  });
});
