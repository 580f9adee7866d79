import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConformanceConfig } from '../../config/config.ts';
import type { Exchange } from '../../model/exchange.ts';
import { defineCheck } from '../../model/check.ts';
import type { CheckDefinition } from '../../model/check.ts';
import { CheckFailure, CheckUnobservable } from '../../model/failure.ts';
import type { CheckInfo } from '../plan/select.ts';
import { sendJson, startServer } from '../../test/startServer.ts';
import type { TestServer } from '../../test/startServer.ts';
import { createRuntime } from './runtime.ts';
import type { Runtime } from './runtime.ts';

const rate = { 'x-ratelimit-limit': '20', 'x-ratelimit-policy': '20;w=1;burst=40' };
let server: TestServer | undefined;
let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.close();
  await server?.close();
  runtime = server = undefined;
});

function config(baseUrl: string, extra: Partial<ConformanceConfig> = {}): ConformanceConfig {
  return {
    baseUrl,
    tokens: { consumer: 'runtime-test-consumer-token' },
    accountId: undefined,
    callbackUrl: undefined,
    receiver: { host: '127.0.0.1', port: 0, tls: false },
    allowIncomplete: false,
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
    concurrency: 1,
    retryAfterCapMs: 1_000,
    specFile: fileURLToPath(new URL('../../test/fixtures/mini-openapi.json', import.meta.url)),
    requirementsFile: fileURLToPath(new URL('../../../spec/requirements.yaml', import.meta.url)),
    dryRun: false,
    color: false,
    runId: 'ctf-test01',
    ...extra,
  };
}

function info(id: string, requirements: string[]): CheckInfo {
  return {
    id,
    title: id,
    group: 'G',
    requirements,
    level: 'MUST',
    tags: [],
    needs: [],
    writes: undefined,
    order: 'normal',
    dependsOn: [],
  };
}

async function runOne(
  definition: Omit<CheckDefinition, 'title'>,
  extra: Partial<ConformanceConfig> = {},
  needsReceiver = false,
) {
  server ??= await startServer((req, res) => {
    if (req.method === 'DELETE') return sendJson(res, req.url === '/api/events/gone' ? 500 : 204, {});
    if (req.url?.startsWith('/api/events'))
      return sendJson(res, 200, req.url.includes('bad') ? { not: 'a list' } : [], rate);
    sendJson(res, 404, { status: 404, error: 'Not Found', message: 'x' });
  });
  runtime = await createRuntime({ config: config(`${server.url}/api`, extra), needsReceiver });
  const check = defineCheck({ title: definition.id, ...definition });
  return runtime.runCheck(check, info(check.id, [...check.requirements]));
}

describe('runtime.runCheck', () => {
  it('when the check returns, then it passed with its exchanges as evidence and the token redacted', async () => {
    const outcome = await runOne({
      id: 'a.pass',
      requirements: ['LIST-001'],
      run: async (ctx) => void (await ctx.http.get('/events')),
    });
    expect(outcome).toMatchObject({ status: 'passed', exchangeCount: 1 });
    expect(outcome.evidence[0]!.request.headers.authorization).toBe('Bearer $CONFORMANCE_TOKEN');
  });

  it('when a CheckFailure is thrown, then received/expected are kept and the failure is narrowed to known requirements', async () => {
    const outcome = await runOne({
      id: 'a.fail',
      requirements: ['LIST-001', 'DEC-ERR-002'],
      run: async (ctx) => {
        const res = await ctx.http.get('/events');
        throw new CheckFailure({
          message: 'nope',
          received: { n: 1 },
          expected: 'two',
          requirements: ['DEC-ERR-002', 'NOT-MINE-001'],
          exchanges: [res.exchange],
        });
      },
    });
    expect(outcome.failure).toMatchObject({
      kind: 'assertion',
      message: 'nope',
      received: '{"n":1}',
      expected: 'two',
      requirements: ['DEC-ERR-002'],
    });
    expect(outcome.failure!.exchanges).toHaveLength(1);
  });

  it('when a response breaks the spec, then the check fails with the pointer even if the check ignores it', async () => {
    const outcome = await runOne({
      id: 'a.spec',
      requirements: ['LIST-001'],
      run: async (ctx) => void (await ctx.http.get('/events?kind=bad')),
    });
    expect(outcome.failure).toMatchObject({ kind: 'spec', pointer: '' });
    const deferred = await runOne({
      id: 'a.deferred',
      requirements: ['LIST-001'],
      run: async (ctx) => void (await ctx.http.get('/events?kind=bad', { validate: 'defer' })),
    });
    expect(deferred).toMatchObject({ status: 'failed', failure: { kind: 'spec' } });
  });

  it('when the check throws something else, then it is an error with a stack', async () => {
    const outcome = await runOne({
      id: 'a.bug',
      requirements: ['LIST-001'],
      run: async () => void (null as unknown as { x: number }).x,
    });
    expect(outcome.failure!.kind).toBe('error');
    expect(outcome.failure!.message).toMatch(/^TypeError: /);
    expect(outcome.failure!.stack).toContain('runtime.test.ts');
  });

  it('when the check calls ctx.skip, then it is skipped with the reason', async () => {
    const outcome = await runOne({
      id: 'a.skip',
      requirements: ['LIST-001'],
      run: async (ctx) => ctx.skip('no venues on this target'),
    });
    expect(outcome).toMatchObject({ status: 'skipped', skipReason: 'no venues on this target' });
  });

  it('when the check needs a move the target does not offer, then its requirements are not observable, not failed or skipped', async () => {
    const outcome = await runOne({
      id: 'a.unobservable',
      requirements: ['LIST-001', 'WF-004'],
      run: async () => {
        throw new CheckUnobservable('the target moves no item into deleted through the API');
      },
    });
    expect(outcome.status).toBe('passed');
    expect(outcome.unverified).toEqual([
      {
        requirements: ['LIST-001', 'WF-004'],
        reason: 'the target moves no item into deleted through the API',
        unobservable: true,
      },
    ]);
  });

  it('when the check overruns --check-timeout, then it fails saying so', async () => {
    const outcome = await runOne(
      { id: 'a.slow', requirements: ['LIST-001'], run: (ctx) => ctx.sleep(5_000) },
      { checkTimeoutMs: 100 },
    );
    expect(outcome.failure!.message).toBe('Error: the check did not finish within 100 ms (--check-timeout)');
  });

  it('when a check learns a secret, then it is redacted from notes and failures', async () => {
    const outcome = await runOne({
      id: 'a.secret',
      requirements: ['LIST-001'],
      run: async (ctx) => {
        ctx.secret('whsec-super-secret-value');
        ctx.note('got whsec-super-secret-value');
        throw new CheckFailure({
          message: 'secret whsec-super-secret-value leaked',
          received: 'whsec-super-secret-value',
        });
      },
    });
    expect(JSON.stringify(outcome)).not.toContain('whsec-super-secret-value');
    expect(outcome.notes).toEqual(['got <redacted secret>']);
  });

  it('when tags and seeds are asked for, then they carry the run id and a per-check seed', async () => {
    let seen: { tags: string[]; seed: number } | undefined;
    await runOne({
      id: 'a.tags',
      requirements: ['LIST-001'],
      run: async (ctx) => void (seen = { tags: [ctx.tag('My Event'), ctx.tag()], seed: ctx.fc.seed }),
    });
    expect(seen!.tags).toEqual(['ctf-test01-my-event-1', 'ctf-test01-item-2']);
    expect(seen!.seed).not.toBe(5);
  });

  it('when cleanup runs, then registered items are soft-deleted newest first and failures are reported', async () => {
    await runOne({
      id: 'a.writes',
      requirements: ['LIST-001'],
      needs: ['write'],
      writes: 'two events',
      run: async (ctx) => {
        ctx.cleanup.softDelete('/events/gone');
        ctx.cleanup.softDelete('/events/one');
      },
    });
    const cleanup = await runtime!.runCleanup();
    expect(cleanup.results).toEqual([
      { description: 'a.writes: soft-delete /events/one', ok: true },
      { description: 'a.writes: soft-delete /events/gone', ok: false, error: 'DELETE /events/gone answered 500' },
    ]);
    expect(cleanup.exchanges.map((e) => e.request.method)).toEqual(['DELETE', 'DELETE']);
  });

  it("when a cleanup step is added, then it runs at the end with the cleanup's own HTTP client", async () => {
    await runOne({
      id: 'a.restore',
      requirements: ['LIST-001'],
      needs: ['write'],
      writes: 'a change undone at the end',
      run: async (ctx) => {
        ctx.cleanup.add('restore', async (http) => {
          const res = await http.get('/events', { token: 'consumer' });
          if (res.status !== 200) throw new Error(`GET /events answered ${res.status}`);
        });
      },
    });
    const cleanup = await runtime!.runCleanup();
    expect(cleanup.results).toEqual([{ description: 'a.restore: restore', ok: true }]);
    expect(cleanup.exchanges.map((e) => `${e.request.method} ${new URL(e.request.url).pathname}`)).toEqual([
      'GET /api/events',
    ]);
  });

  it('when a check uses the receiver without declaring webhook, then it is told to', async () => {
    const outcome = await runOne({
      id: 'a.hook',
      requirements: ['LIST-001'],
      run: async (ctx) => void ctx.receiver.url,
    });
    expect(outcome.failure!.message).toContain("declare needs: ['webhook']");
  });

  it('when the receiver is needed, then checks get it and deliveries reach their endpoint', async () => {
    const outcome = await runOne(
      {
        id: 'a.receive',
        requirements: ['HOOK-007'],
        needs: ['webhook'],
        writes: 'nothing (test)',
        run: async (ctx) => {
          const endpoint = ctx.receiver.endpoint('probe');
          const res = await request(endpoint.url, { method: 'POST', body: '{"items":[]}' });
          await res.body.dump();
          await endpoint.waitForCount(1, 1000);
        },
      },
      {},
      true,
    );
    expect(outcome.status).toBe('passed');
  });
});

describe('ctx.watchSecret across a run', () => {
  const SECRET = 'wnNnRoWEcuGZhN2K1F0VH6H2lhVvsPo0sQsSD-LzuoU';

  it('when a later check receives a watched secret, then the sighting names that check and the evidence is redacted', async () => {
    let leak = false;
    server = await startServer((_req, res) =>
      sendJson(res, 200, [], leak ? { ...rate, 'x-debug': `secret=${SECRET}` } : rate),
    );
    runtime = await createRuntime({
      config: config(`${server.url}/api`, {
        tokens: {
          consumer: 'secret-watch-consumer-token',
          sessionUser: 'editor',
          sessionPassword: 'session-password-1',
        },
      }),
      needsReceiver: false,
    });
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
    await runtime.runCheck(first, info('a.mint', ['LIST-001']));
    const outcome = await runtime.runCheck(second, info('a.read', ['LIST-001']));
    expect(seen.map((s) => [s.checkId, s.label, s.where])).toEqual([
      ['a.read', 'signingSecret of t1', 'header x-debug'],
    ]);
    expect(seen[0]!.exchange.response!.headers['x-debug']).toBe('secret=<signingSecret of t1>');
    expect(outcome.notes).toEqual(['password $CONFORMANCE_SESSION_PASSWORD']);
  });
});

describe('runtime.runCheck with the interface layer beside the spec', () => {
  it('when a response differs from our decision only, then the check passes and records the deviation', async () => {
    server = await startServer((_req, res) => sendJson(res, 404, { code: 'E404' }, rate));
    runtime = await createRuntime({
      config: config(`${server.url}/api`, {
        specFile: fileURLToPath(new URL('../../../generated/openapi.json', import.meta.url)),
      }),
      needsReceiver: false,
    });
    const check = defineCheck({
      id: 'a.deviates',
      title: 'deviates',
      requirements: ['LIST-001'],
      run: async (ctx) => void (await ctx.http.get('/events/nope')),
    });
    const outcome = await runtime.runCheck(check, info(check.id, ['LIST-001']));
    expect(outcome.status).toBe('passed');
    expect(outcome.deviations).toEqual([
      expect.objectContaining({
        decisions: ['DEC-ERR-001'],
        message: expect.stringMatching(/^GET \/api\/events\/nope → 404 differs from our decision: /),
      }),
    ]);
  });
});
