import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  client,
  eventBody,
  newTestAccount,
  superAdminToken,
  type TestAccount,
} from '../../test/support/items/itemsHarness.ts';
import { createLogger } from '../logger.ts';
import type { Db, Listener } from '../storage/db.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';
import { waitFor } from '../../test/support/waitFor.ts';
import { createTokenCache, listenForAuthChanges } from './tokenCache.ts';

// The app with the token cache as the service wires it (server.ts): a token is looked up once,
// and a change made through this app, or straight in the store as another instance would, is
// followed.

/** The Db, counting the account token lookups that reach it. */
function countingLookups(db: Db): { db: Db; lookups: () => number } {
  let lookups = 0;
  const counted: Db = Object.create(db, {
    query: {
      value: (sql: string, params?: readonly unknown[]) => {
        if (sql.includes('FROM api_tokens t')) lookups++;
        return db.query(sql, params);
      },
    },
  }) as Db;
  return { db: counted, lookups: () => lookups };
}

describeEachEngine('account tokens through the token cache', (ctx) => {
  let app: TestApp;
  let listener: Listener;
  let counting: ReturnType<typeof countingLookups>;
  let account: TestAccount;

  beforeAll(async () => {
    counting = countingLookups(ctx.db);
    const tokenCache = createTokenCache({ now: Date.now });
    listener = await listenForAuthChanges(ctx.db, tokenCache, createLogger({ level: 'silent' }));
    app = await startTestApp(counting.db, { env: { RATE_LIMIT_ENABLED: 'false' }, deps: { tokenCache } });
    account = await newTestAccount(ctx.db);
  });
  afterAll(async () => {
    await app.close();
    await listener.close();
  });

  it('when one token calls several times, then it is looked up in the store once', async () => {
    const before = counting.lookups();
    for (let i = 0; i < 5; i++)
      expect((await client(app.baseUrl, account.full).get('/events?size=1')).status).toBe(200);
    expect(counting.lookups() - before).toBe(1);
  });

  it('when a token is deleted through this app, then the very next request with it is refused [TOKEN-009] [AUTH-002]', async () => {
    const created = await client(app.baseUrl, account.admin).post(`/accounts/${account.accountId}/tokens`, {
      name: 'to delete',
      roles: ['ROLE_EXTERNAL_USER'],
    });
    expect(created.status).toBe(201);
    const user = client(app.baseUrl, created.body.token as string);
    expect((await user.get('/events')).status).toBe(200);
    expect((await user.get('/events')).status).toBe(200);
    expect(
      (await client(app.baseUrl, account.admin).delete(`/accounts/${account.accountId}/tokens/${created.body.id}`))
        .status,
    ).toBe(204);
    expect((await user.get('/events')).status).toBe(401);
  });

  it("when a token's filter changes in the store directly (another instance), then this app applies it once notified", async () => {
    const user = client(app.baseUrl, account.full);
    const archived = await user.post('/events', eventBody({ wfstatus: 'archived' }));
    expect(archived.status).toBe(201);
    const seesArchived = async () =>
      ((await user.get('/events?wfstatus=archived')).body as Array<{ id: string }>).some(
        (item) => item.id === archived.body.id,
      );
    expect(await seesArchived()).toBe(true);
    await ctx.db.query(
      `UPDATE api_tokens SET filter_wfstatus = '{approved}' WHERE account_id = $1 AND 'archived' = ANY(filter_wfstatus) AND roles = '{ROLE_EXTERNAL_USER}'`,
      [account.accountId],
    );
    await waitFor('the narrowed filter', async () => !(await seesArchived()), 2000);
  });

  it('when an organisation is added to the account in the store directly, then a token without an organisation filter sees its items once notified [DEC-AUTH-004]', async () => {
    const user = client(app.baseUrl, account.full);
    expect((await user.get('/events?size=1')).status).toBe(200);
    const organisation = `${account.accountId}-added`;
    await ctx.db.query('INSERT INTO organisations (userorganisation, account_id) VALUES ($1, $2)', [
      organisation,
      account.accountId,
    ]);
    const admin = client(app.baseUrl, await superAdminToken(ctx.db, account.accountId));
    const created = await admin.post('/events', eventBody({ userorganisation: organisation, wfstatus: 'approved' }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await waitFor(
      "the added organisation in the token's scope",
      async () => {
        const listed = await user.get(`/events?trcid=${encodeURIComponent(created.body.trcid as string)}`);
        return (listed.body as Array<{ id: string }>).some((item) => item.id === created.body.id);
      },
      2000,
    );
  });
});
