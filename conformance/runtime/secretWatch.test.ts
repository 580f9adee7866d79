import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConformanceConfig } from '../config/config.ts';
import type { Exchange } from '../http/exchange.ts';
import { defineCheck } from '../model/check.ts';
import type { CheckInfo } from '../plan/select.ts';
import { sendJson, startServer } from '../test/startServer.ts';
import type { TestServer } from '../test/startServer.ts';
import { createRuntime } from './runtime.ts';
import type { Runtime } from './runtime.ts';
import { createSecretWatch } from './secretWatch.ts';

const SECRET = 'wnNnRoWEcuGZhN2K1F0VH6H2lhVvsPo0sQsSD-LzuoU';
const exchange = { seq: 1 } as Exchange;

describe('createSecretWatch', () => {
  it('when a watched value shows in a body or a header, then each place is a sighting under its label', () => {
    const watch = createSecretWatch();
    watch.scan('a.before', { text: `{"signingSecret":"${SECRET}"}`, headers: {}, exchange });
    watch.watch(SECRET, 'signingSecret of t1');
    watch.scan('a.later', { text: `{"echo":"${SECRET}"}`, headers: { 'x-debug': `k=${SECRET}` }, exchange });
    watch.scan('a.clean', { text: '{"callBackUrl":"https://x"}', headers: {}, exchange });
    expect(watch.sightings.map((s) => [s.checkId, s.label, s.where])).toEqual([
      ['a.later', 'signingSecret of t1', 'body'],
      ['a.later', 'signingSecret of t1', 'header x-debug'],
    ]);
  });

  it('when a value is too short to be a secret, then it is not watched', () => {
    const watch = createSecretWatch();
    watch.watch('abc', 'short');
    watch.scan('a.b', { text: 'abcabc', headers: {}, exchange });
    expect(watch.sightings).toEqual([]);
  });
});

let server: TestServer | undefined;
let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.close();
  await server?.close();
  runtime = server = undefined;
});

function config(baseUrl: string): ConformanceConfig {
  return {
    baseUrl,
    tokens: { consumer: 'secret-watch-consumer-token', sessionUser: 'editor', sessionPassword: 'session-password-1' },
    accountId: undefined,
    callbackUrl: undefined,
    receiver: { host: '127.0.0.1', port: 0, tls: false },
    profile: 'full',
    only: [],
    skip: [],
    expectedFailuresFile: undefined,
    expectedFailures: [],
    reportDir: '/tmp',
    reporters: [],
    seed: 5,
    numRuns: 10,
    timeoutMs: 2_000,
    checkTimeoutMs: 2_000,
    retryAfterCapMs: 1_000,
    specFile: fileURLToPath(new URL('../test/fixtures/mini-openapi.json', import.meta.url)),
    requirementsFile: fileURLToPath(new URL('../../spec/requirements.yaml', import.meta.url)),
    dryRun: false,
    color: false,
    runId: 'ctf-test02',
  };
}

const info = (id: string): CheckInfo => ({ id, title: id, group: 'G', requirements: ['LIST-001'], level: 'MUST', tags: [], needs: [], writes: undefined, order: 'normal', dependsOn: [] });
const rate = { 'x-ratelimit-limit': '20', 'x-ratelimit-policy': '20;w=1;burst=40' };

describe('ctx.watchSecret across a run', () => {
  it('when a later check receives a watched secret, then the sighting names that check and the evidence is redacted', async () => {
    let leak = false;
    server = await startServer((_req, res) => sendJson(res, 200, [], leak ? { ...rate, 'x-debug': `secret=${SECRET}` } : rate));
    runtime = await createRuntime({ config: config(`${server.url}/api`), needsReceiver: false });
    const first = defineCheck({
      id: 'a.mint',
      title: 't',
      requirements: ['LIST-001'],
      run: async (ctx) => {
        await ctx.http.get('/events');
        ctx.watchSecret(SECRET, 'signingSecret of t1');
      },
    });
    let seen: readonly { checkId: string; label: string; where: string; exchange: Exchange }[] = [];
    const second = defineCheck({
      id: 'a.read',
      title: 't',
      requirements: ['LIST-001'],
      run: async (ctx) => {
        leak = true;
        await ctx.http.get('/events');
        seen = ctx.secretSightings();
        ctx.note(`password session-password-1`);
      },
    });
    await runtime.runCheck(first, info('a.mint'));
    const outcome = await runtime.runCheck(second, info('a.read'));
    expect(seen.map((s) => [s.checkId, s.label, s.where])).toEqual([['a.read', 'signingSecret of t1', 'header x-debug']]);
    expect(seen[0]!.exchange.response!.headers['x-debug']).toBe('secret=<signingSecret of t1>');
    expect(outcome.notes).toEqual(['password $CONFORMANCE_SESSION_PASSWORD']);
  });
});
