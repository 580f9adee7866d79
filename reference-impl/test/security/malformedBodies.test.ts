import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { newTestAccount, type TestAccount } from '../support/items/itemsHarness.ts';
import { createLogger } from '../../src/logger.ts';
import { describeEachEngine } from '../support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { rawClient, type RawAnswer, type RawClient, type RawRequest } from '../support/security/rawHttp.ts';

// Bodies and query values a client can break in ways the schema never sees (issue 18, items 3, 4
// and 6): a compressed body that is not what its Content-Encoding says, a lone UTF-16 surrogate
// escape that PostgreSQL refuses, bytes that are not UTF-8. Each is the client's error: a 400 in
// the error shape, nothing stored, and no error-level log line.

const EVENT = JSON.stringify({
  trcItemDetails: [{ lang: 'nl', title: 'Concert' }],
  calendar: { singleDates: [{ date: '2027-08-14', when: [{ timestart: '20:15' }] }] },
});

describeEachEngine('malformed bodies and query values are client errors', (ctx) => {
  let app: TestApp;
  let http: RawClient;
  let account: TestAccount;
  const logLines: Array<{ level: number; msg: string; err?: unknown }> = [];

  beforeAll(async () => {
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => void logLines.push(JSON.parse(line)) },
    });
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' }, deps: { logger } });
    http = rawClient(app.baseUrl);
    account = await newTestAccount(ctx.db);
  });
  afterAll(async () => {
    await http?.close();
    await app?.close();
  });
  beforeEach(() => {
    logLines.length = 0;
  });

  function expectClientError(answer: RawAnswer, statuses: number[], mentions?: string): void {
    expect(statuses, answer.body.toString().slice(0, 300)).toContain(answer.status);
    expect(answer.json).toMatchObject({
      status: answer.status,
      error: expect.any(String),
      message: expect.any(String),
    });
    if (mentions !== undefined) expect((answer.json as { message: string }).message).toContain(mentions);
    // pino: 50 is error, 60 fatal.
    expect(logLines.filter((line) => line.level >= 50)).toEqual([]);
  }

  function post(path: string, body: Buffer | string, headers: Record<string, string> = {}): RawRequest {
    return {
      method: 'POST',
      path,
      headers: { authorization: `Bearer ${account.admin}`, 'content-type': 'application/json', ...headers },
      body,
    };
  }

  async function eventCount(): Promise<number> {
    const rows = await ctx.db.query<{ n: string }>("SELECT count(*) AS n FROM items WHERE entitytype = 'EVENEMENT'");
    return Number(rows.rows[0]!.n);
  }

  const corrupt: Array<[string, string, Buffer]> = [
    ['gzip', 'plain JSON', Buffer.from(EVENT)],
    ['gzip', 'a truncated gzip stream', gzipSync(EVENT).subarray(0, 20)],
    ['deflate', 'plain JSON', Buffer.from(EVENT)],
    ['deflate', 'a truncated deflate stream', deflateSync(EVENT).subarray(0, 10)],
    ['br', 'plain JSON', Buffer.from(EVENT)],
    ['br', 'a truncated brotli stream', brotliCompressSync(EVENT).subarray(0, 10)],
  ];

  it.each(corrupt)(
    'when Content-Encoding is %s and the body is %s, then the answer is a 400 (a 401 without a bearer) and nothing is logged as an error',
    async (encoding, _what, body) => {
      const answer = await http.send(post('/events', body, { 'content-encoding': encoding }));
      expectClientError(answer, [400, 415], encoding);
      // Logged as the client's error: info level, no stack, no body.
      expect(logLines.find((line) => line.msg === 'request body refused')).toMatchObject({ level: 30, status: 400 });
      expect(JSON.stringify(logLines)).not.toContain('Concert');
      // Without a bearer the body is never read: a 401.
      expectClientError(
        await http.send(post('/events', body, { 'content-encoding': encoding, authorization: '' })),
        [401],
      );
    },
  );

  it('when Content-Encoding is gzip and the body is gzip, then the event is created', async () => {
    const answer = await http.send(post('/events', gzipSync(EVENT), { 'content-encoding': 'gzip' }));
    expect(answer.status, answer.body.toString().slice(0, 300)).toBe(201);
  });

  const surrogates: Array<[string, string, string]> = [
    ['a lone high surrogate in a title', '/events', EVENT.replace('"Concert"', '"Con\\ud800cert"')],
    ['a lone low surrogate in a title', '/events', EVENT.replace('"Concert"', '"\\udc00"')],
    ['a reversed pair in a title', '/events', EVENT.replace('"Concert"', '"\\udc00\\ud800"')],
    ['a lone surrogate in a field name', '/events', EVENT.replace('"Concert"}', '"Concert","x\\ud800":1}')],
    ...['locations', 'venues', 'eventgroups', 'routes'].map((collection): [string, string, string] => [
      `a lone surrogate in a ${collection} title`,
      `/${collection}`,
      JSON.stringify({ trcItemDetails: [{ lang: 'nl', title: 'T' }] }).replace('"T"', '"\\ud800"'),
    ]),
  ];

  it.each(surrogates)('when the body has %s, then the answer is a 400 naming the field', async (_what, path, body) => {
    const before = await eventCount();
    const answer = await http.send(post(path, body));
    expectClientError(answer, [400], 'surrogate');
    expect(JSON.stringify(answer.json)).toMatch(/trcItemDetails\/0\/|\/x/);
    expect(await eventCount()).toBe(before);
  });

  it('when an item is updated with a lone surrogate, then the answer is a 400 and the item is unchanged', async () => {
    const created = await http.send(post('/events', EVENT));
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    const answer = await http.send({
      ...post(`/events/${id}`, EVENT.replace('"Concert"', '"\\ud83d"')),
      method: 'PUT',
    });
    expectClientError(answer, [400], '/trcItemDetails/0/title');
  });

  it('when the propertiesOntology holds a lone surrogate, then the answer is a 400 naming the field', async () => {
    const answer = await http.send({
      ...post(
        `/dictionary/propertiesOntology?accountId=${account.accountId}`,
        '{"propertyCategories":[{"id":"c","label":"\\udfff","properties":[]}]}',
      ),
      method: 'PUT',
    });
    expectClientError(answer, [400], 'surrogate');
  });

  it.each([
    ['a byte that never starts UTF-8', Buffer.from([0xff])],
    ['a truncated two-byte sequence', Buffer.from([0xc3])],
    ['an overlong encoding of "/"', Buffer.from([0xc0, 0xaf])],
    ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
  ])('when the JSON body holds %s, then the answer is a 400 and nothing is stored', async (_what, bytes) => {
    const before = await eventCount();
    const [head, tail] = EVENT.split('Concert');
    const body = Buffer.concat([Buffer.from(`${head}Con`), bytes, Buffer.from(`cert${tail}`)]);
    expectClientError(await http.send(post('/events', body)), [400], 'UTF-8');
    expect(await eventCount()).toBe(before);
  });

  it.each(['%FF', '%C3', '%C0%AF', '%ED%A0%80', 'a%E9b'])(
    'when a query value is the percent-encoding %s, which is not UTF-8, then the answer is a 400 naming it',
    async (encoded) => {
      const answer = await http.send({
        method: 'GET',
        path: `/events?trcid=${encoded}`,
        headers: { authorization: `Bearer ${account.admin}` },
      });
      expectClientError(answer, [400], 'trcid');
    },
  );

  it('when a body comes without a valid bearer, then it is a 401 before the body is read; bearer-less operations read at most 16 KiB', async () => {
    const big = JSON.stringify({ slug: 's'.repeat(2 * 1024 * 1024) });
    for (const authorization of [undefined, 'Bearer not-a-token']) {
      const answer = await http.send({
        method: 'POST',
        path: '/events',
        headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
        body: big,
      });
      expect(answer.status).toBe(401);
    }
    expect((await http.send(post('/events', big))).status).toBe(413);
    const signIn = (password: string): RawRequest => ({
      method: 'POST',
      path: '/auth/signin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'nobody', password }),
    });
    expect((await http.send(signIn('p'.repeat(17 * 1024)))).status).toBe(413);
    expect((await http.send(signIn('p'.repeat(100)))).status).toBe(401);
  });

  it('when a query value is percent-encoded UTF-8, then it is read as written', async () => {
    const answer = await http.send({
      method: 'GET',
      path: '/events?trcid=caf%C3%A9',
      headers: { authorization: `Bearer ${account.admin}` },
    });
    expect(answer.status).toBe(200);
  });
});
