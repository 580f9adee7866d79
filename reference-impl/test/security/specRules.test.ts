import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventBody, newTestAccount, type TestAccount } from '../support/items/itemsHarness.ts';
import { describeEachEngine } from '../support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';

// Findings of the second outside attack (issue 30): empty query values that passed where the
// spec's schemas refuse them, and repeated member names that were read last-wins.

describeEachEngine('request rules the spec states', (ctx) => {
  let app: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    account = await newTestAccount(ctx.db);
  });
  afterAll(() => app.close());
  const api = () => client(app.baseUrl, account.full);

  describe('empty query values', () => {
    it('when a parameter is sent empty where its schema refuses the empty string, then 400 naming it [DEC-LIST-011]', async () => {
      for (const path of [
        '/assets?sortOrder=',
        '/assets?size=',
        '/assets?lastupdated=',
        '/dictionary/categorizationOntology?accountId=',
        '/dictionary/propertiesOntology?accountId=',
        '/events?size=',
        '/events?trcid=',
        '/events?wfstatus=',
        '/events?sortOrder=',
        '/events?published=',
      ]) {
        const answer = await api().get(path);
        expect(answer.status, path).toBe(400);
        const name = path.slice(path.indexOf('?') + 1, -1);
        expect(answer.body.details?.[0]?.pointer, path).toMatch(new RegExp(`^query/${name}(/|$)`));
      }
    });

    it('when the schema takes the empty string, then it is a value: the assets sortField falls back to date [DEC-LIST-011] [ASSET-011]', async () => {
      expect((await api().get('/assets?sortField=')).status).toBe(200);
    });

    it('when lastupdated is no ISO-8601 date or timestamp (0, 2026-02-30), then 400 [DEC-LIST-005] [ERR-002]', async () => {
      for (const value of ['0', '2026-02-30', '2026-13-01'])
        for (const path of ['/assets', '/events'])
          expect((await api().get(`${path}?lastupdated=${value}`)).status, `${path} ${value}`).toBe(400);
    });
  });

  describe('repeated member names', () => {
    it('when a body repeats wfstatus, then 400 naming the member and nothing is stored [DEC-ERR-006]', async () => {
      const title = `Twice ${Date.now()}`;
      const text = `{"wfstatus":"readyforvalidation","trcItemDetails":[{"lang":"nl","title":"${title}"}],"wfstatus":"approved"}`;
      const answer = await api().call('POST', '/events', text, { 'content-type': 'application/json' });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ status: 400, error: 'Bad Request', details: [{ pointer: '/wfstatus' }] });
      expect(answer.body.message).toContain('"wfstatus"');
      const listed = (await api().get('/events?wfstatus=readyforvalidation,approved&size=100')).body as any[];
      expect(listed.some((item) => item.trcItemDetails?.[0]?.title === title)).toBe(false);
    });

    it('when a nested object repeats a name spelled with an escape, then 400 with its pointer; the same name in two objects is fine [DEC-ERR-006]', async () => {
      const nested = `{"trcItemDetails":[{"lang":"nl","title":"a","\\u0074itle":"b"}]}`;
      const answer = await api().call('POST', '/events', nested, { 'content-type': 'application/json' });
      expect(answer.status).toBe(400);
      expect(answer.body.details[0].pointer).toBe('/trcItemDetails/0/title');
      expect(
        (
          await api().post(
            '/events',
            eventBody({
              trcItemDetails: [
                { lang: 'nl', title: 'a' },
                { lang: 'en', title: 'a' },
              ],
            }),
          )
        ).status,
      ).toBe(201);
    });
  });
});
