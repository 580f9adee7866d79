import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { isCheckFailure } from '../model/failure.ts';
import { parseSpec } from '../../spec/index.ts';
import { createResponseValidator } from '../spec/responseValidator.ts';
import { sendJson, startServer } from '../test/startServer.ts';
import type { TestServer } from '../test/startServer.ts';
import type { Exchange } from '../model/exchange.ts';
import { createHttpClient } from './httpClient.ts';
import type { HttpClientOptions } from './httpClient.ts';
import { createRedactor } from './redact.ts';

const validator = createResponseValidator(
  parseSpec(readFileSync(new URL('../test/fixtures/mini-openapi.json', import.meta.url))).document,
);
const rate = { 'x-ratelimit-limit': '20', 'x-ratelimit-policy': '20;w=1;burst=40' };
let server: TestServer | undefined;
afterEach(async () => server?.close());

function client(baseUrl: string, extra: Partial<HttpClientOptions> = {}) {
  const exchanges: Exchange[] = [];
  const waits: number[] = [];
  const http = createHttpClient({
    baseUrl,
    tokens: { consumer: 'consumer-secret-value', admin: 'admin-secret-value' },
    redactor: createRedactor(),
    record: (e) => exchanges.push(e),
    validator,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  });
  return { http, exchanges, waits };
}

async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isCheckFailure(error)) return error;
    throw error;
  }
  throw new Error('expected a CheckFailure');
}

describe('createHttpClient', () => {
  it('when a request is made, then the exchange is recorded with the token redacted', async () => {
    server = await startServer((req, res) => sendJson(res, 200, [{ seenAuth: req.headers.authorization }], rate));
    const { http, exchanges } = client(`${server.url}/api`, { validator: undefined });
    const res = await http.get('/events', { query: { size: 5, wfstatus: ['approved', 'archived'] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ seenAuth: 'Bearer consumer-secret-value' }]);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]!.request.url).toBe(`${server.url}/api/events?size=5&wfstatus=approved%2Carchived`);
    expect(exchanges[0]!.request.headers.authorization).toBe('Bearer $CONFORMANCE_TOKEN');
    expect(JSON.stringify(exchanges[0])).not.toContain('consumer-secret-value');
  });

  it('when a response has members with escaped names, then the body keeps each name as sent (nodejs/node#63785)', async () => {
    // JSON.parse on Node 24 and 26 reads "\"" as "\\" after it, in member objects led by the same
    // members: a name new to the process leads them, so that it does here.
    const lead = `lead_${randomUUID().slice(0, 8)}`;
    const sent = [{ extra: { [lead]: [], '\\': 1 } }, { extra: { [lead]: 2, '"': 2 } }];
    server = await startServer((_req, res) => sendJson(res, 200, sent, rate));
    const { http } = client(`${server.url}/api`, { validator: undefined });
    const res = await http.get('/events');
    const items = res.body as Array<{ extra: object }>;
    expect(items.map((item) => Object.keys(item.extra).slice(1))).toEqual([['\\'], ['"']]);
  });

  it('when a response holds a signing secret, then the recorded body hides it', async () => {
    server = await startServer((_req, res) =>
      sendJson(res, 201, { name: 't', signingSecret: 'c2VjcmV0LXNob3duLW9uY2U', token: 'cst_abcdefgh' }),
    );
    const { http, exchanges } = client(server.url, { validator: undefined });
    const res = await http.post('/accounts/a/tokens', { token: 'admin', json: { name: 't' } });
    expect((res.body as { signingSecret: string }).signingSecret).toBe('c2VjcmV0LXNob3duLW9uY2U');
    expect(exchanges[0]!.response!.body).toBe('{"name":"t","signingSecret":"<redacted>","token":"<redacted>"}');
    expect(exchanges[0]!.request.headers.authorization).toBe('Bearer $CONFORMANCE_ADMIN_TOKEN');
  });

  it('when the token is "none", then no Authorization header is sent', async () => {
    server = await startServer((req, res) => sendJson(res, 200, { auth: req.headers.authorization ?? null }));
    const { http } = client(server.url, { validator: undefined });
    expect((await http.get('/x', { token: 'none' })).body).toEqual({ auth: null });
  });

  it('when a check asks for a token that is not configured, then it says which need to declare', async () => {
    const { http } = client('http://127.0.0.1:9', { tokens: {} });
    await expect(http.get('/events', { token: 'full' })).rejects.toThrow("declare needs: ['full']");
  });

  it('when the response does not conform, then a spec CheckFailure carries the pointer and exchange', async () => {
    server = await startServer((_req, res) => sendJson(res, 200, { results: [] }, rate));
    const { http } = client(`${server.url}/api`);
    const failure = await failureOf(http.get('/events'));
    expect(failure.kind).toBe('spec');
    expect(failure.message).toBe('GET /api/events → 200 does not conform to the spec: (root) must be array');
    expect(failure.pointer).toBe('');
    expect(failure.expected).toBe('type array');
    expect(failure.exchanges[0]!.problems).toHaveLength(1);
  });

  it('when the base URL has no /api, then paths still match the spec', async () => {
    server = await startServer((_req, res) => sendJson(res, 200, [], rate));
    const { http } = client(server.url);
    expect((await http.get('/events')).status).toBe(200);
  });

  it('when a 429 carries Retry-After, then the client waits that long and retries', async () => {
    let calls = 0;
    server = await startServer((_req, res) => {
      calls++;
      if (calls === 1)
        sendJson(
          res,
          429,
          { status: 429, error: 'Too Many Requests', message: 'slow' },
          { ...rate, 'retry-after': '2' },
        );
      else sendJson(res, 200, [], rate);
    });
    const { http, waits, exchanges } = client(server.url);
    const res = await http.get('/events');
    expect(res.status).toBe(200);
    expect(waits).toEqual([2000]);
    expect(exchanges.map((e) => e.response?.status)).toEqual([429, 200]);
    expect(exchanges[0]!.note).toBe('429: waited 2000 ms before retrying');
  });

  it('when Retry-After is huge, then the wait is capped', async () => {
    let calls = 0;
    server = await startServer((_req, res) => {
      calls++;
      if (calls === 1)
        sendJson(
          res,
          429,
          { status: 429, error: 'Too Many Requests', message: 'slow' },
          { ...rate, 'retry-after': '3600' },
        );
      else sendJson(res, 200, [], rate);
    });
    const { http, waits } = client(server.url, { retryAfterCapMs: 5_000 });
    await http.get('/events');
    expect(waits).toEqual([5_000]);
  });

  it('when 429s continue, then the client gives up after the retry limit and never waits less than the floor', async () => {
    server = await startServer((_req, res) =>
      sendJson(res, 429, { status: 429, error: 'Too Many Requests', message: 'slow' }, { ...rate, 'retry-after': '1' }),
    );
    const { http, waits, exchanges } = client(server.url, { max429Retries: 2, validator: undefined });
    const res = await http.get('/events');
    expect(res.status).toBe(429);
    expect(exchanges).toHaveLength(3);
    expect(waits).toHaveLength(2);
    for (const w of waits) expect(w).toBeGreaterThanOrEqual(1000);
  });

  it('when Retry-After is 0 or missing, then the client still waits at least 500 ms', async () => {
    server = await startServer((_req, res) =>
      sendJson(res, 429, { status: 429, error: 'Too Many Requests', message: 'slow' }, { 'retry-after': '0' }),
    );
    const { http, waits } = client(server.url, { max429Retries: 1, validator: undefined });
    await http.get('/events');
    expect(waits[0]).toBeGreaterThanOrEqual(500);
  });

  it('when on429 is "return", then the 429 is handed over without waiting', async () => {
    server = await startServer((_req, res) =>
      sendJson(res, 429, { status: 429, error: 'Too Many Requests', message: 'slow' }, { ...rate, 'retry-after': '1' }),
    );
    const { http, waits } = client(server.url);
    expect((await http.get('/events', { on429: 'return' })).status).toBe(429);
    expect(waits).toEqual([]);
  });

  it('when the target does not answer in time, then an error failure says so', async () => {
    server = await startServer(() => new Promise(() => {}));
    const { http, exchanges } = client(server.url, { timeoutMs: 200 });
    const failure = await failureOf(http.get('/events'));
    expect(failure.kind).toBe('error');
    expect(failure.message).toContain('no complete response within 200 ms');
    expect(exchanges[0]!.error).toBe('no complete response within 200 ms');
  });

  it('when the target is unreachable, then an error failure names the connection error', async () => {
    const { http } = client('http://127.0.0.1:9');
    const failure = await failureOf(http.get('/events'));
    expect(failure.kind).toBe('error');
    expect(failure.message).toContain('ECONNREFUSED');
  });

  it('when the server sends a Date header, then it is parsed', async () => {
    server = await startServer((_req, res) =>
      sendJson(res, 200, [], { ...rate, date: 'Sun, 01 Nov 2026 12:00:00 GMT' }),
    );
    const { http } = client(server.url);
    expect((await http.get('/events')).date?.toISOString()).toBe('2026-11-01T12:00:00.000Z');
  });
});
