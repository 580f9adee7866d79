import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, uploadAsset } from '../support/assets/assetFixtures.ts';
import { ALL_STATUSES, createTestAccount, createTestToken } from '../support/fixtures.ts';
import { client, eventBody } from '../support/items/itemsHarness.ts';
import { describeEachEngine } from '../support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { createTestUser } from '../support/sessions/testUsers.ts';
import { randomUUID } from 'node:crypto';

// Least privilege for writers (DEC-AUTH-020) and narrowed admins (DEC-AUTH-010). The attack that
// found it: a token limited to live data (ROLE_EXTERNAL_USER, approved only) published, replaced
// and deleted live items.

describeEachEngine('write grant', (ctx) => {
  let app: TestApp;
  let accountId: string;
  let organisation: string;
  let reader: string; // live data only, no write grant
  let writer: string; // live data only, with the grant
  let admin: string; // every status, with the grant
  let adminWithoutGrant: string;
  beforeAll(async () => {
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    accountId = `acc-${randomUUID().slice(0, 12)}`;
    organisation = `${accountId}-org`;
    await createTestAccount(ctx.db, { accountId, organisations: [organisation] });
    reader = (await createTestToken(ctx.db, { accountId, canWrite: false })).token;
    writer = (await createTestToken(ctx.db, { accountId, canWrite: true })).token;
    admin = (await createTestToken(ctx.db, { accountId, roles: ['ROLE_ADMIN'], wfstatus: ALL_STATUSES })).token;
    adminWithoutGrant = (
      await createTestToken(ctx.db, { accountId, roles: ['ROLE_ADMIN'], wfstatus: ALL_STATUSES, canWrite: false })
    ).token;
  });
  afterAll(() => app.close());
  const tokensPath = () => `/accounts/${accountId}/tokens`;

  describe('items and assets', () => {
    it('when a token without the grant publishes, replaces or deletes a live item, then 403 naming the grant and the item is unchanged [DEC-AUTH-020] [DEC-ITEM-007]', async () => {
      const live = await client(app.baseUrl, writer).post('/events', eventBody({ wfstatus: 'approved' }));
      expect(live.status).toBe(201);
      const api = client(app.baseUrl, reader);
      const post = await api.post('/events', eventBody({ wfstatus: 'approved' }));
      expect(post.status).toBe(403);
      expect(post.body).toMatchObject({ status: 403, error: 'Forbidden' });
      expect(post.body.message).toContain('canWrite');
      const put = await api.put(`/events/${live.body.id}`, {
        ...live.body,
        trcItemDetails: [{ lang: 'nl', title: 'Overwritten' }],
      });
      expect(put.status).toBe(403);
      expect((await api.delete(`/events/${live.body.id}`)).status).toBe(403);
      const read = await api.get(`/events/${live.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body.trcItemDetails).toEqual(live.body.trcItemDetails);
      expect((await api.get(`/events?trcid=${encodeURIComponent(post.body.trcid ?? 'none')}`)).body).toEqual([]);
    });

    it('when a token without the grant writes an item it cannot see, then 404 as for reads: the grant check reveals nothing [DEC-AUTH-020] [DEC-ITEM-029]', async () => {
      const draft = await client(app.baseUrl, admin).post('/events', eventBody({ wfstatus: 'readyforvalidation' }));
      const api = client(app.baseUrl, reader);
      expect((await api.put(`/events/${draft.body.id}`, {})).status).toBe(404);
      expect((await api.delete(`/events/${draft.body.id}`)).status).toBe(404);
    });

    it('when a token without the grant uploads or edits an asset, then 403; with the grant, 201 and 200 [DEC-AUTH-020]', async () => {
      const refused = await uploadAsset(app.baseUrl, reader, { bytes: makePdf(), filename: 'a.pdf' });
      expect(refused.status).toBe(403);
      const uploaded = await uploadAsset(app.baseUrl, writer, { bytes: makePdf(), filename: 'b.pdf' });
      expect(uploaded.status).toBe(201);
      const { id } = (await uploaded.json()) as { id: string };
      expect((await client(app.baseUrl, reader).put(`/assets/${id}`, { title: 'x' })).status).toBe(403);
      expect((await client(app.baseUrl, writer).put(`/assets/${id}`, { title: 'y' })).status).toBe(200);
    });

    it('when a token with the grant or a session writes, then the write happens [DEC-AUTH-020] [DEC-AUTH-015]', async () => {
      expect((await client(app.baseUrl, writer).post('/events', eventBody({ wfstatus: 'approved' }))).status).toBe(201);
      const user = await createTestUser(ctx.db, { accountId });
      const signin = await client(app.baseUrl).post('/auth/signin', {
        username: user.username,
        password: user.password,
      });
      expect(signin.status).toBe(200);
      const session = client(app.baseUrl, signin.body.access_token);
      expect((await session.post('/events', eventBody())).status).toBe(201);
    });
  });

  describe('token administration', () => {
    it('when a token is created without canWrite, then it reads only and its answer says canWrite false; with canWrite true it writes [DEC-AUTH-020]', async () => {
      const api = client(app.baseUrl, admin);
      const plain = await api.post(tokensPath(), { name: 'kiosk', roles: ['ROLE_EXTERNAL_USER'] });
      expect(plain.status).toBe(201);
      expect(plain.body.canWrite).toBe(false);
      expect((await client(app.baseUrl, plain.body.token).post('/events', eventBody())).status).toBe(403);
      const granted = await api.put(`${tokensPath()}/${plain.body.id}`, { canWrite: true });
      expect(granted.status).toBe(200);
      expect(granted.body.canWrite).toBe(true);
      expect((await client(app.baseUrl, plain.body.token).post('/events', eventBody())).status).toBe(201);
      const writerToken = await api.post(tokensPath(), {
        name: 'publisher',
        roles: ['ROLE_EXTERNAL_USER'],
        canWrite: true,
      });
      expect(writerToken.body.canWrite).toBe(true);
    });

    it('when an admin without the grant gives it, to a new token or its own, or manages a token holding it, then 403 [DEC-AUTH-020] [DEC-AUTH-010]', async () => {
      const narrow = client(app.baseUrl, adminWithoutGrant);
      expect(
        (await narrow.post(tokensPath(), { name: 'x', roles: ['ROLE_EXTERNAL_USER'], canWrite: true })).status,
      ).toBe(403);
      const made = await narrow.post(tokensPath(), { name: 'y', roles: ['ROLE_EXTERNAL_USER'] });
      expect(made.status).toBe(201);
      expect((await narrow.put(`${tokensPath()}/${made.body.id}`, { canWrite: true })).status).toBe(403);
      const wide = await client(app.baseUrl, admin).post(tokensPath(), {
        name: 'z',
        roles: ['ROLE_EXTERNAL_USER'],
        canWrite: true,
      });
      expect((await narrow.put(`${tokensPath()}/${wide.body.id}`, { name: 'renamed' })).status).toBe(403);
      expect((await narrow.delete(`${tokensPath()}/${wide.body.id}`)).status).toBe(403);
      expect((await narrow.get(`${tokensPath()}/${wide.body.id}/deliveries`)).status).toBe(403);
    });

    it('when an admin narrowed to live data gives a token draft, or reads the delivery log of a wider token, then 403 [DEC-AUTH-010]', async () => {
      const liveAdmin = (await createTestToken(ctx.db, { accountId, roles: ['ROLE_ADMIN'] })).token;
      const api = client(app.baseUrl, liveAdmin);
      const draft = await api.post(tokensPath(), {
        name: 'drafts',
        roles: ['ROLE_EXTERNAL_USER'],
        apiTokenFilter: { wfstatus: ['approved', 'draft'] },
      });
      expect(draft.status).toBe(403);
      expect(draft.body.message).toContain('readyforvalidation');
      const wider = await client(app.baseUrl, admin).post(tokensPath(), {
        name: 'sync',
        roles: ['ROLE_EXTERNAL_USER'],
        apiTokenFilter: { wfstatus: ['approved', 'archived', 'deleted'] },
      });
      expect(wider.status).toBe(201);
      const log = await api.get(`${tokensPath()}/${wider.body.id}/deliveries`);
      expect(log.status).toBe(403);
      expect((await client(app.baseUrl, admin).get(`${tokensPath()}/${wider.body.id}/deliveries`)).status).toBe(200);
      const own = await api.post(tokensPath(), { name: 'live', roles: ['ROLE_EXTERNAL_USER'] });
      expect((await api.get(`${tokensPath()}/${own.body.id}/deliveries`)).status).toBe(200);
    });
  });
});
