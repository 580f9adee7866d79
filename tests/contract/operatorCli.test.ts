// The operator's own command-line client against the reference service: every request it sent in
// a recorded run (operator-cli/requests.json; scripts/operator-cli/ builds the Go CLI with only its
// base URL changed, runs its list, get and delete commands on all five collections and records
// what it sends) is replayed here, so `npm test` proves without Go that the CLI meets no 4xx. Its
// list commands then fail to parse the interface's bare array: that is the interface's choice.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, newTestAccount, superAdminToken } from '../../reference-impl/test/support/items/itemsHarness.ts';
import { describeEachEngine } from '../../reference-impl/test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../reference-impl/test/support/testApp.ts';

interface Recorded {
  method: string;
  url: string;
}

const { requests } = JSON.parse(readFileSync(new URL('./operator-cli/requests.json', import.meta.url), 'utf8')) as {
  requests: Recorded[];
};
const COLLECTIONS = ['events', 'locations', 'routes', 'venues', 'eventgroups'] as const;

describe('the recorded requests of the operator CLI', () => {
  it('when the recording is read, then it holds list, get and delete requests of all five collections', () => {
    for (const collection of COLLECTIONS) {
      const of = requests.filter((r) => r.url.startsWith(`/api/${collection}`));
      expect(
        of.some((r) => r.method === 'GET' && r.url.includes('?')),
        `${collection} list`,
      ).toBe(true);
      expect(
        of.some((r) => r.method === 'GET' && r.url === `/api/${collection}/{id}`),
        `${collection} get`,
      ).toBe(true);
      expect(
        of.some((r) => r.method === 'DELETE'),
        `${collection} delete`,
      ).toBe(true);
    }
  });
});

describeEachEngine('the operator CLI replayed against the reference service', (context) => {
  let app: TestApp;
  let token: string;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    const { db } = context;
    app = await startTestApp(db);
    const account = await newTestAccount(db);
    token = await superAdminToken(db, account.accountId);
    const writer = client(app.baseUrl, account.admin);
    for (const collection of COLLECTIONS) {
      const created = await writer.post(`/${collection}`, {
        trcItemDetails: [{ lang: 'nl', title: `Operator CLI ${collection}` }],
        wfstatus: 'approved',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      ids.set(collection, created.body.id as string);
    }
    return () => app.close();
  });

  it('when each recorded request is sent with its item ids, then none answers a 4xx', async () => {
    const answers: string[] = [];
    for (const { method, url } of requests) {
      const collection = /^\/api\/([a-z]+)/.exec(url)?.[1] ?? '';
      const path = url.replace(/^\/api/, '').replace('{id}', ids.get(collection) ?? '{id}');
      const answer = await client(app.baseUrl, token).call(method, path);
      if (answer.status >= 400) answers.push(`${method} ${url} → ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    expect(answers).toEqual([]);
  });
});
