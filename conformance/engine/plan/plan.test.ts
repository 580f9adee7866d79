import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../config/config.ts';
import type { ConformanceConfig } from '../../config/config.ts';
import { defineCheck } from '../../model/check.ts';
import { createCatalogue } from '../../spec/requirements.ts';
import { parseExpectedFailures } from './expectedFailures.ts';
import { globToRegExp } from './glob.ts';
import { CheckLoadError, loadChecks } from './loadChecks.ts';
import { describeMissing, missingCredentials } from './credentials.ts';
import { planChecks, unmatchedPatterns } from './select.ts';

const catalogue = createCatalogue([
  { id: 'HEALTH-001', level: 'MUST', subject: 'service', section: '', statement: '' },
  { id: 'HOOK-011', level: 'MUST', subject: 'service', section: '', statement: '' },
  { id: 'RATE-004', level: 'MUST', subject: 'service', section: '', statement: '' },
  { id: 'SYNC-006', level: 'SHOULD', subject: 'service', section: '', statement: '' },
  { id: 'DEC-ERR-002', level: 'DECISION', subject: 'service', section: '', statement: '' },
]);
const run = async () => {};
const checks = [
  defineCheck({
    id: 'rate.burst',
    title: 't',
    requirements: ['RATE-004'],
    tags: ['rate-limit'],
    needs: ['consumer'],
    order: 'last',
    run,
  }),
  defineCheck({
    id: 'hooks.signature',
    title: 't',
    requirements: ['HOOK-011'],
    needs: ['webhook'],
    writes: 'a token with a callBackUrl',
    run,
  }),
  defineCheck({ id: 'health.responds', title: 't', requirements: ['HEALTH-001', 'DEC-ERR-002'], run }),
  defineCheck({ id: 'sync.reconcile', title: 't', requirements: ['SYNC-006', 'DEC-ERR-002'], needs: ['full'], run }),
  defineCheck({ id: 'errors.shape', title: 't', requirements: ['DEC-ERR-002'], run }),
];

async function config(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ConformanceConfig> {
  const command = await resolveConfig(['--base-url', 'http://t/api', ...args], env, '/tmp');
  if (command.kind !== 'run') throw new Error('expected a run');
  return command.config;
}

describe('defineCheck', () => {
  it('when the definition is invalid, then every problem is named', () => {
    expect(() => defineCheck({ id: 'Bad Id', title: '', requirements: [], run })).toThrow(
      /id must look like .*title is required.*at least one requirement/,
    );
    expect(() => defineCheck({ id: 'a.b', title: 't', requirements: ['X-001'], needs: ['write'], run })).toThrow(
      'a check that writes must say what it writes',
    );
  });
});

describe('planChecks', () => {
  it('when planned, then levels derive from requirements and the order puts groups in order (decisions after their family) and rate limits last', async () => {
    const plan = planChecks(checks, catalogue, await config(['--profile', 'full'], { CONFORMANCE_TOKEN: 't' }));
    expect(plan.map((e) => [e.check.id, e.check.level, e.check.group])).toEqual([
      ['health.responds', 'MUST', 'HEALTH'],
      ['errors.shape', 'DECISION', 'DEC-ERR'],
      ['hooks.signature', 'MUST', 'HOOK'],
      ['sync.reconcile', 'SHOULD', 'SYNC'],
      ['rate.burst', 'MUST', 'RATE'],
    ]);
  });

  it('when tokens or the profile do not allow a check, then it is skipped with the reason', async () => {
    const plan = planChecks(checks, catalogue, await config([]));
    const reasons = Object.fromEntries(plan.map((e) => [e.check.id, e.skipReason]));
    expect(reasons).toEqual({
      'health.responds': undefined,
      'hooks.signature': 'writes to the target; the consumer profile is read-only (use --profile full)',
      'sync.reconcile': 'needs a token that sees archived and deleted items (--full-token)',
      'errors.shape': undefined,
      'rate.burst': 'needs a consumer token (--token)',
    });
    const full = planChecks(checks, catalogue, await config(['--profile', 'full']));
    expect(full.find((e) => e.check.id === 'hooks.signature')!.skipReason).toBe(
      'needs an admin token and its account (--admin-token, --account-id)',
    );
  });

  it('when --only and --skip use ids, requirement globs, tags and groups, then selection follows them', async () => {
    const only = planChecks(
      checks,
      catalogue,
      await config(['--only', 'HEALTH-*', '--only', 'rate-limit'], { CONFORMANCE_TOKEN: 't' }),
    );
    expect(only.filter((e) => e.run).map((e) => e.check.id)).toEqual(['health.responds', 'rate.burst']);
    const skip = planChecks(checks, catalogue, await config(['--skip', 'DEC-ERR-*,rate.*']));
    expect(skip.find((e) => e.check.id === 'errors.shape')!.skipReason).toBe('excluded by --skip DEC-ERR-*');
    expect(skip.find((e) => e.check.id === 'rate.burst')!.skipReason).toBe('excluded by --skip rate.*');
    expect(
      unmatchedPatterns(
        only.map((e) => e.check),
        ['HOOK', 'nothing-*'],
      ),
    ).toEqual(['nothing-*']);
  });
});

describe('missingCredentials', () => {
  const missing = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const c = await config(args, env);
    return missingCredentials(planChecks(checks, catalogue, c), c);
  };

  it('when full runs without tokens, then each missing token is named with the checks that need it', async () => {
    const found = await missing(['--profile', 'full']);
    expect(found.map((m) => [m.flags, m.checks])).toEqual([
      ['--token (CONFORMANCE_TOKEN)', ['rate.burst']],
      ['--full-token (CONFORMANCE_FULL_TOKEN)', ['sync.reconcile']],
      ['--admin-token (CONFORMANCE_ADMIN_TOKEN)', ['hooks.signature']],
      ['--account-id (CONFORMANCE_ACCOUNT_ID)', ['hooks.signature']],
    ]);
    expect(describeMissing(found, 'full')).toMatch(
      /^the full profile needs credentials that were not given:\n {2}--token \(CONFORMANCE_TOKEN\): needed by 1 check\(s\) \(rate\.burst\)/,
    );
  });

  it('when the checks that need a token are not selected, or the profile is consumer, then nothing is missing', async () => {
    expect(await missing(['--profile', 'certification', '--only', 'health.*,errors.*'])).toEqual([]);
    expect(
      await missing(['--profile', 'full', '--skip', 'rate.burst,hooks.*'], { CONFORMANCE_FULL_TOKEN: 'f' }),
    ).toEqual([]);
    expect(await missing([])).toEqual([]);
  });
});

describe('loadChecks', () => {
  it('when the real checks load, then each id equals its file name and every requirement exists', async () => {
    const { loadRequirements } = await import('../../spec/requirements.ts');
    const real = await loadChecks(
      fileURLToPath(new URL('../../checks/', import.meta.url)),
      await loadRequirements(fileURLToPath(new URL('../../../spec/requirements.yaml', import.meta.url))),
    );
    expect(real.map((c) => c.id)).toEqual(
      expect.arrayContaining(['health.responds', 'auth.missing-token-401', 'lists.bare-array', 'limits.size-cap']),
    );
  });

  it('when a check file is wrong, then loading fails naming every problem', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ctf-checks-'));
    await mkdir(join(dir, 'x'));
    const model = fileURLToPath(new URL('../../model/check.ts', import.meta.url));
    const file = (id: string, req: string) =>
      `import { defineCheck } from '${model}';\nexport default defineCheck({ id: '${id}', title: 't', requirements: ['${req}'], run: async () => {} });\n`;
    await writeFile(join(dir, 'x', 'x.right.ts'), file('x.right', 'HEALTH-001'));
    await writeFile(join(dir, 'x', 'x.misnamed.ts'), file('x.other', 'HEALTH-001'));
    await writeFile(join(dir, 'x', 'x.unknown.ts'), file('x.unknown', 'NOPE-001'));
    await writeFile(join(dir, 'x', 'x.helper.ts'), 'export const helper = 1;\n');
    await writeFile(join(dir, 'x', 'x.right.test.ts'), 'throw new Error("tests are not checks")\n');
    const error = await loadChecks(dir, catalogue).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckLoadError);
    expect((error as Error).message).toContain('x/x.misnamed.ts: the file name must equal the check id (x.other.ts)');
    expect((error as Error).message).toContain('x.unknown: unknown requirement id NOPE-001');
    expect((error as Error).message).toContain('x/x.helper.ts: must default-export a check');
  });
});

describe('resolveConfig', () => {
  it('when flags and environment both set a value, then the flag wins', async () => {
    const c = await config(['--profile', 'full', '--seed', '12'], {
      CONFORMANCE_PROFILE: 'certification',
      CONFORMANCE_SEED: '99',
      CONFORMANCE_TOKEN: 'tok',
      CONFORMANCE_SKIP: 'a,b',
    });
    expect(c).toMatchObject({
      profile: 'full',
      seed: 12,
      tokens: { consumer: 'tok' },
      skip: ['a', 'b'],
      reportDir: '/tmp/reports/conformance',
    });
    expect(c.runId).toMatch(/^ctf-[0-9a-z]{6}$/);
  });

  it('when values are invalid, then the error names the option and the value', async () => {
    await expect(resolveConfig(['--base-url', 'ftp://x'], {}, '/')).rejects.toThrow(
      '--base-url must be an http or https URL (received: ftp://x)',
    );
    await expect(resolveConfig(['--base-url', 'http://x', '--timeout', '1s'], {}, '/')).rejects.toThrow(
      '--timeout must be a whole number (received: 1s)',
    );
    await expect(resolveConfig(['--base-url', 'http://x', '--account-id', 'a b'], {}, '/')).rejects.toThrow(
      '--account-id must be 1 to 64 characters',
    );
    await expect(resolveConfig(['--base-url', 'http://x', '--reporters', 'pdf'], {}, '/')).rejects.toThrow(
      '--reporters accepts console, junit, json, html (received: pdf)',
    );
    await expect(
      resolveConfig(['--base-url', 'http://x', '--expected-failures', '/nonexistent.yaml'], {}, '/'),
    ).rejects.toThrow('cannot read /nonexistent.yaml');
  });

  it('when session credentials, webhook timing and the oversize upload are given, then they are typed; defaults otherwise', async () => {
    const c = await config(
      ['--webhook-quiet', '1500', '--webhook-slow', '1500', '--asset-oversize', '0', '--feed-id', 'uitagenda'],
      {
        CONFORMANCE_SESSION_USER: 'editor',
        CONFORMANCE_SESSION_PASSWORD: 'pw-123456',
        CONFORMANCE_WEBHOOK_WAIT: '9000',
      },
    );
    expect(c).toMatchObject({
      tokens: { sessionUser: 'editor', sessionPassword: 'pw-123456' },
      webhook: { waitMs: 9000, quietMs: 1500, slowMs: 1500 },
      assetOversizeBytes: 0,
      feedId: 'uitagenda',
    });
    expect(await config([])).toMatchObject({
      webhook: { waitMs: 15000, quietMs: 6000, slowMs: 6000 },
      assetOversizeBytes: 21 * 1024 * 1024,
    });
    await expect(resolveConfig(['--base-url', 'http://x', '--session-user', 'editor'], {}, '/')).rejects.toThrow(
      '--session-user and --session-password go together',
    );
  });

  it('when a check needs a session and no credentials are given, then it is skipped saying which options', async () => {
    const session = defineCheck({
      id: 'sessions.sign-in',
      title: 't',
      requirements: ['HEALTH-001'],
      needs: ['session'],
      run,
    });
    const without = planChecks([session], catalogue, await config([]));
    expect(without[0]!.skipReason).toBe('needs sign-in credentials (--session-user, --session-password)');
    const withCredentials = planChecks(
      [session],
      catalogue,
      await config(['--session-user', 'u', '--session-password', 'p']),
    );
    expect(withCredentials[0]!.run).toBe(true);
  });

  it('when verify-report is the command, then the file is resolved against the working directory', async () => {
    expect(await resolveConfig(['verify-report', 'r/result.json'], {}, '/work')).toEqual({
      kind: 'verify-report',
      file: '/work/r/result.json',
    });
  });
});

describe('expected failures and globs', () => {
  const TODAY = new Date('2026-12-02T10:00:00Z');
  const parse = (text: string) => parseExpectedFailures(text, 'f', TODAY);
  const valid = '  reason: x\n  owner: qa\n  expires: 2027-01-15';

  it('when an entry has neither or both of check and requirement, or no reason, then it is rejected', () => {
    expect(() => parse('- reason: x\n  owner: qa\n  expires: 2027-01-15')).toThrow(
      'f entry 0: give exactly one of "check" or "requirement"',
    );
    expect(() => parse(`- check: a.b\n  requirement: X-001\n${valid}`)).toThrow('exactly one');
    expect(() => parse('- check: a.b\n  owner: qa\n  expires: 2027-01-15')).toThrow('a non-empty "reason" is required');
    expect(parse(`expectedFailures:\n  - requirement: RATE-*\n  ${valid.replaceAll('\n', '\n  ')}`)).toEqual([
      { requirement: 'RATE-*', reason: 'x', owner: 'qa', expires: '2027-01-15' },
    ]);
  });

  it('when an entry lacks an owner or an expiry, or expires more than 90 days ahead, then every problem is named at once', () => {
    const text = [
      '- check: a.b',
      '  reason: x',
      '- check: c.d',
      '  reason: x',
      '  owner: qa',
      '  expires: 2027-03-03',
      '- check: e.f',
      '  reason: x',
      '  owner: qa',
      '  expires: 2027-02-30',
      '- check: g.h',
      '  reason: x',
      '  owner: qa',
      '  expires: 2027-03-02',
      '  expiry: 2027-01-01',
    ].join('\n');
    let error: unknown;
    try {
      parse(text);
    } catch (e) {
      error = e;
    }
    expect((error as { problems: string[] }).problems).toEqual([
      'f entry 0: an "owner" is required (who reviews this waiver)',
      'f entry 0: an "expires" date is required (YYYY-MM-DD, at most 90 days ahead)',
      'f entry 1: expires 2027-03-03 is more than 90 days ahead; the latest allowed today is 2027-03-02',
      'f entry 2: "expires" must be a date YYYY-MM-DD (received: "2027-02-30")',
      'f entry 3: unknown key "expiry" (known: check, requirement, reason, owner, expires)',
    ]);
  });

  it('when a waiver file has a problem, then the run cannot start and the message names it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ctf-waivers-'));
    await writeFile(join(dir, 'known.yaml'), '- check: a.b\n  reason: x\n  owner: qa\n  expires: 2099-01-01\n');
    await expect(
      resolveConfig(['--base-url', 'http://x', '--expected-failures', 'known.yaml'], {}, dir),
    ).rejects.toThrow(/known\.yaml entry 0: expires 2099-01-01 is more than 90 days ahead/);
  });

  it('when a glob is matched, then * and ? work and case is ignored', () => {
    expect(globToRegExp('HOOK-*').test('hook-011')).toBe(true);
    expect(globToRegExp('auth.?').test('auth.x')).toBe(true);
    expect(globToRegExp('a.b').test('axb')).toBe(false);
  });
});
