import { afterAll, beforeAll, expect, it } from 'vitest';
import { client, eventBody, newTestAccount } from '../../test/support/items/itemsHarness.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';
import { randomUUID } from 'node:crypto';

// trcid uniqueness (DEC-ITEM-006): compared in Unicode NFC, and the 409 is the same whoever holds it.

describeEachEngine('trcid uniqueness', (ctx) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
  });
  afterAll(() => app.close());
  const unique = () => randomUUID().slice(0, 8);

  it('when trc-café is created composed and then decomposed, then the second is a 409 and one item holds it, stored in NFC [DEC-ITEM-006]', async () => {
    const api = client(app.baseUrl, (await newTestAccount(ctx.db)).full);
    const stem = `trc-${unique()}-caf`;
    const decomposed = `${stem}e\u0301`;
    const composed = `${stem}\u00e9`;
    const first = await api.post('/events', eventBody({ trcid: decomposed }));
    expect(first.status).toBe(201);
    expect(first.body.trcid).toBe(composed);
    const second = await api.post('/events', eventBody({ trcid: composed }));
    expect(second.status).toBe(409);
    expect((await api.post('/events', eventBody({ trcid: decomposed }))).status).toBe(409);
    // A PUT that sends the other spelling changes nothing about the trcid: it is the same one.
    const put = await api.put(`/events/${first.body.id}`, { ...eventBody(), trcid: decomposed });
    expect(put.status).toBe(200);
    expect(put.body.trcid).toBe(composed);
  });

  it('when a trcid stored before normalisation (decomposed) is created again in NFC, then 409 [DEC-ITEM-006]', async () => {
    const account = await newTestAccount(ctx.db);
    const api = client(app.baseUrl, account.full);
    const created = await api.post('/events', eventBody());
    const decomposed = `trc-${unique()}-cafe\u0301`;
    await ctx.db.query('UPDATE items SET trcid = $1 WHERE id = $2', [decomposed, created.body.id]);
    expect((await api.post('/events', eventBody({ trcid: decomposed.normalize('NFC') }))).status).toBe(409);
  });

  it("when an admin creates a trcid another account's item holds, then the 409 is the one of a visible conflict and names neither the item nor its owner [DEC-ITEM-006]", async () => {
    const utrecht = await newTestAccount(ctx.db);
    const amsterdam = await newTestAccount(ctx.db);
    const theirs = await client(app.baseUrl, utrecht.full).post('/routes', { trcid: `trc-${unique()}-route` });
    expect(theirs.status).toBe(201);
    const mine = await client(app.baseUrl, amsterdam.full).post('/routes', { trcid: `trc-${unique()}-own` });

    const foreign = await client(app.baseUrl, amsterdam.admin).post('/routes', { trcid: theirs.body.trcid });
    const visible = await client(app.baseUrl, amsterdam.admin).post('/routes', { trcid: mine.body.trcid });
    expect(foreign.status).toBe(409);
    expect(visible.status).toBe(409);
    const shape = (message: string, trcid: string) => message.replace(JSON.stringify(trcid), '<trcid>');
    expect(shape(foreign.body.message, theirs.body.trcid)).toBe(shape(visible.body.message, mine.body.trcid));
    for (const secret of [theirs.body.id, theirs.body.userorganisation, utrecht.accountId])
      expect(JSON.stringify(foreign.body)).not.toContain(secret);
  });
});
