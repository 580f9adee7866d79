// Test the tester: the whole CLI against a tiny fake Content Service. A correct target passes;
// each deliberately broken variant fails on the requirement it breaks, and only there.

import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequirementVerdict, RunResult } from '../engine/results/result.ts';
import type { Fault } from './fakeTarget.ts';
import { GOOD_TOKEN, startFakeTarget } from './fakeTarget.ts';
import { MINI_SPEC, runCli } from './runCli.ts';

const TOKEN_ENV = { CONFORMANCE_TOKEN: GOOD_TOKEN };

function verdicts(result: RunResult, ids: readonly string[]): Record<string, RequirementVerdict | undefined> {
  return Object.fromEntries(ids.map((id) => [id, result.requirements.find((r) => r.id === id)?.verdict]));
}

// The fake target implements just what the framework's own four checks need; the scenario checks
// are tested against the reference service (tests/conformance/).
const FRAMEWORK_CHECKS = 'health.responds,auth.missing-token-401,lists.bare-array,limits.size-cap';

async function runAgainst(
  faults: readonly Fault[],
  extraArgs: readonly string[] = ['--only', FRAMEWORK_CHECKS],
  now?: () => Date,
) {
  const target = await startFakeTarget({ faults, now });
  try {
    const run = await runCli(['--base-url', target.baseUrl, '--spec', MINI_SPEC, '--seed', '7', ...extraArgs], {
      env: TOKEN_ENV,
    });
    return { run, result: run.code === 2 ? undefined : await run.result() };
  } finally {
    await target.close();
  }
}

const WATCHED = [
  'HEALTH-001',
  'DEC-MISC-001',
  'AUTH-002',
  'DEC-ERR-002',
  'LIST-001',
  'LIMIT-002',
  'LIMIT-003',
  'ERR-001',
];

describe('content-conformance against a correct target', () => {
  let outcome: Awaited<ReturnType<typeof runAgainst>>;
  beforeAll(async () => {
    outcome = await runAgainst([]);
  });

  it('when every check passes, then it exits 0 and the covered requirements pass', () => {
    expect(outcome.run.stderr).toBe('');
    expect(outcome.run.code).toBe(0);
    expect(verdicts(outcome.result!, WATCHED)).toEqual({
      'HEALTH-001': 'pass',
      'DEC-MISC-001': 'decision-pass',
      'AUTH-002': 'pass',
      'DEC-ERR-002': 'decision-pass',
      'LIST-001': 'pass',
      'LIMIT-002': 'not-verifiable', // the fake's clock (today) is past 1 November 2026: never observable again
      'LIMIT-003': 'pass',
      'ERR-001': 'pass',
    });
  });

  it('when requirements are left unverified, then the verdict is incomplete, not pass', () => {
    expect(outcome.result!.verdict).toBe('incomplete');
    expect(outcome.result!.requirements.find((r) => r.id === 'HOOK-011')).toMatchObject({ verdict: 'not-verified' });
  });

  it('when a requirement binds clients, then it is shown as covered by the client library tests', () => {
    expect(outcome.result!.requirements.find((r) => r.id === 'SYNC-001')?.verdict).toBe('client-library');
  });

  it('when the run ends, then progress was shown per requirement group and all reports exist', () => {
    expect(outcome.run.stdout).toMatch(
      /\nHEALTH\n\[ ?1\/\d+\] ✓ health\.responds[\s\S]*\nAUTH\n[\s\S]*\nLIST\n[\s\S]*\nLIMIT\n/,
    );
    expect(outcome.run.stdout).toContain(`Report (junit): ${join(outcome.run.reportDir, 'junit.xml')}`);
    expect(outcome.run.stdout).toContain(`Report (html): ${join(outcome.run.reportDir, 'report.html')}`);
    expect(outcome.run.stdout).toContain('Seed: 7 (replay with --seed 7)');
  });

  it('when the run starts, then the console lists the target variants and every report records them with their source', async () => {
    expect(outcome.run.stdout).toContain('Target variants (where the interface is silent):');
    expect(outcome.run.stdout).toMatch(/credentialStatuses: missing=401, invalid=401, forbidden=403 \(discovered/);
    const variants = outcome.result!.targetVariants ?? [];
    expect(variants.find((v) => v.name === 'credentialStatuses')?.source).toBe('discovered');
    // The consumer profile writes nothing, so the write probes do not run.
    expect(variants.find((v) => v.name === 'updatePath')).toMatchObject({ value: 'detail', source: 'default' });
    const junit = await readFile(join(outcome.run.reportDir, 'junit.xml'), 'utf8');
    expect(junit).toContain('<property name="variant.updatePath" value="detail (default)"/>');
    const html = await readFile(join(outcome.run.reportDir, 'report.html'), 'utf8');
    expect(html).toContain('<h2>Target variants</h2>');
  });

  it('when the result is written, then its integrity hash verifies and the token never appears', async () => {
    const verify = await runCli(['verify-report', join(outcome.run.reportDir, 'result.json')]);
    expect(verify.code).toBe(0);
    const html = await runCli(['verify-report', join(outcome.run.reportDir, 'report.html')]);
    expect(html.stdout).toContain('the page matches its embedded result');
    expect(JSON.stringify(await outcome.run.result())).not.toContain(GOOD_TOKEN);
  });
});

describe('content-conformance exit codes of an incomplete run', () => {
  let target: Awaited<ReturnType<typeof startFakeTarget>>;
  beforeAll(async () => {
    target = await startFakeTarget();
  });
  afterAll(async () => target.close());
  const args = () => ['--base-url', target.baseUrl, '--spec', MINI_SPEC, '--seed', '7', '--only', FRAMEWORK_CHECKS];

  it('when a full run leaves MUST requirements unverified, then it exits 3, or 0 with --allow-incomplete', async () => {
    const full = await runCli([...args(), '--profile', 'full'], { env: TOKEN_ENV });
    expect(full.stderr).toBe('');
    expect(full.code).toBe(3);
    expect(full.stdout).toMatch(/Verdict: INCOMPLETE \(MUST requirements not verified\) \(exit 3\) — exit 3: /);
    expect((await full.result()).exitCode).toBe(3);
    const allowed = await runCli([...args(), '--profile', 'full', '--allow-incomplete'], { env: TOKEN_ENV });
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('— allowed by --allow-incomplete');
  });

  it('when the consumer profile leaves them unverified, then it exits 0 and says it is the read-only subset', async () => {
    const summary = join(await mkdtemp(join(tmpdir(), 'ctf-gh-')), 'step-summary.md');
    const run = await runCli(args(), {
      env: { ...TOKEN_ENV, GITHUB_STEP_SUMMARY: summary, GITHUB_SERVER_URL: 'https://github.com' },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'Verdict: INCOMPLETE (MUST requirements not verified) (exit 0) — profile consumer: the read-only subset only, not a certification',
    );
    // In GitHub Actions the same verdict lands on the job's summary page.
    const markdown = await readFile(summary, 'utf8');
    expect(markdown).toMatch(
      /^## ⚠️ Content Service conformance: INCOMPLETE \(MUST requirements not verified\) \(exit 0\)\n/,
    );
    expect(markdown).toContain('> profile consumer: the read-only subset only');
    expect(markdown).toContain(`Report: \`${join(run.reportDir, 'report.html')}\``);
  });
});

describe('content-conformance against a broken target', () => {
  it('when a target is broken, then the CLI fails with exit 1 and puts the root failure first with Received/Expected and a curl line', async () => {
    const { run } = await runAgainst(['listWrappedInObject', 'sizeCapWrongMessage']);
    expect(run.code).toBe(1);
    const summary = run.stdout.slice(run.stdout.indexOf('Root failure'));
    expect(summary).toMatch(/^Root failure: lists\.bare-array \(MUST\)/);
    expect(summary).toContain('Received: JSON object');
    expect(summary).toContain('Expected: a bare JSON array');
    expect(summary).toContain(`Reproduce: curl -sS -i '`);
    expect(summary.indexOf('limits.size-cap')).toBeGreaterThan(summary.indexOf('Also failing (MUST): 1'));
  });
});

/** A waiver expiry within the 90 days allowed from today. */
const SOON = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);

describe('content-conformance options', () => {
  let target: Awaited<ReturnType<typeof startFakeTarget>>;
  beforeAll(async () => {
    target = await startFakeTarget({ faults: ['sizeCapWrongMessage'] });
  });
  afterAll(async () => target.close());

  it('when a check is listed as an expected failure, then the run passes and says why', async () => {
    const file = join(await import('node:os').then((os) => os.tmpdir()), `ctf-expected-${process.pid}.yaml`);
    await writeFile(
      file,
      `- requirement: ERR-001\n  reason: the fake words the size message differently\n  owner: qa\n  expires: ${SOON}\n`,
    );
    const run = await runCli(
      ['--base-url', target.baseUrl, '--spec', MINI_SPEC, '--expected-failures', file, '--only', FRAMEWORK_CHECKS],
      { env: TOKEN_ENV },
    );
    expect(run.code).toBe(0);
    const result = await run.result();
    expect(result.checks.find((c) => c.id === 'limits.size-cap')).toMatchObject({
      status: 'expected-failure',
      expectedFailureReason: 'the fake words the size message differently',
    });
    expect(result.requirements.find((r) => r.id === 'ERR-001')?.verdict).toBe('expected-failure');
  });

  it('when an expected failure passes, then the run fails as an unexpected pass', async () => {
    const file = join(await import('node:os').then((os) => os.tmpdir()), `ctf-expected2-${process.pid}.json`);
    await writeFile(
      file,
      JSON.stringify([{ check: 'health.responds', reason: 'stale entry', owner: 'qa', expires: SOON }]),
    );
    const run = await runCli(
      ['--base-url', target.baseUrl, '--spec', MINI_SPEC, '--expected-failures', file, '--only', 'health.*'],
      { env: TOKEN_ENV },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'stale waiver for check health.responds (owner qa): health.responds now passes; remove it from the expected-failures file',
    );
  });

  it('when the options come from a config file with the token from an environment variable, then the run uses them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ctf-config-'));
    const file = join(dir, 'content-conformance.yaml');
    await writeFile(
      file,
      [`base-url: ${target.baseUrl}`, `spec: ${MINI_SPEC}`, 'token: ${VENDOR_TOKEN}', 'only: [health.*]'].join('\n'),
    );
    const run = await runCli(['--config', file], { env: { VENDOR_TOKEN: GOOD_TOKEN } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect((await run.result()).checks.filter((c) => c.status === 'passed').map((c) => c.id)).toEqual([
      'health.responds',
    ]);
  });

  it('when --dry-run is given, then the plan lists what runs, what it writes and why others are skipped, without contacting the target', async () => {
    const before = target.requests.length;
    const run = await runCli(
      ['--base-url', target.baseUrl, '--spec', MINI_SPEC, '--dry-run', '--profile', 'full', '--only', FRAMEWORK_CHECKS],
      { env: TOKEN_ENV },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Tokens: consumer ✓ · full ✗ · admin ✗');
    expect(run.stdout).toMatch(/run {2}lists\.bare-array \[MUST\] LIST-001/);
    expect(run.stdout).toMatch(/\n4 of \d+ checks would run/);
    expect(target.requests.length).toBe(before);
  });
});

describe('content-conformance could-not-run cases (exit 2)', () => {
  it('when the target is unreachable, then it exits 2 naming the probe', async () => {
    const run = await runCli(['--base-url', 'http://127.0.0.1:9/api', '--spec', MINI_SPEC]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('target unreachable: GET http://127.0.0.1:9/api/actuator/health failed (ECONNREFUSED');
  });

  it('when the base URL misses /api, then the probe says so', async () => {
    const target = await startFakeTarget();
    try {
      const run = await runCli(['--base-url', target.url, '--spec', MINI_SPEC]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('both answered 404 (the base URL normally ends in /api)');
    } finally {
      await target.close();
    }
  });

  it('when the consumer token is refused, then it exits 2', async () => {
    const target = await startFakeTarget();
    try {
      const run = await runCli(['--base-url', target.baseUrl, '--spec', MINI_SPEC], {
        env: { CONFORMANCE_TOKEN: 'wrong-token' },
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('the consumer token was refused');
    } finally {
      await target.close();
    }
  });

  it('when the full profile runs without the tokens its checks need, then it exits 2 naming them before contacting the target', async () => {
    const target = await startFakeTarget();
    try {
      const run = await runCli(['--base-url', target.baseUrl, '--spec', MINI_SPEC, '--profile', 'full']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('the full profile needs credentials that were not given:');
      for (const flag of ['--token (CONFORMANCE_TOKEN)', '--full-token', '--admin-token', '--account-id'])
        expect(run.stderr).toContain(`  ${flag}`);
      expect(run.stdout).toBe('');
      expect(target.requests).toEqual([]);
      const cert = await runCli(['--base-url', target.baseUrl, '--spec', MINI_SPEC, '--profile', 'certification'], {
        env: TOKEN_ENV,
      });
      expect(cert.code).toBe(2);
      expect(cert.stderr).not.toContain('--token (CONFORMANCE_TOKEN)');
      expect(cert.stderr).toContain('--session-user and --session-password');
    } finally {
      await target.close();
    }
  });

  it('when the configuration is invalid, then it exits 2 with the reason', async () => {
    // The individual validations are unit-tested in plan/plan.test.ts (resolveConfig).
    const bad = await runCli(['--base-url', 'http://x', '--profile', 'gold']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--profile must be one of consumer, full, certification (received: gold)');
  });

  it('when the config file has an unknown key, then it exits 2 naming the key', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'ctf-config-')), 'suite.yaml');
    await writeFile(file, 'base-url: http://x/api\nvariants:\n  tokenIdFeld: tokenId\n');
    const bad = await runCli(['--config', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${file}: unknown key variants.tokenIdFeld (did you mean tokenIdField?)`);
  });

  it('when the spec cannot be read, then it exits 2 with a spec error', async () => {
    const run = await runCli(['--base-url', 'http://127.0.0.1:9', '--spec', '/nonexistent/openapi.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('spec error: cannot read the bundled spec /nonexistent/openapi.json');
  });

  it('when --help is asked, then every option is listed with its environment variable and exit 0', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--base-url URL');
    expect(run.stdout).toContain('[CONFORMANCE_EXPECTED_FAILURES]');
    expect(run.stdout).toContain('Exit codes: 0');
  });
});

describe('bin/content-conformance.mjs', () => {
  const shim = fileURLToPath(new URL('../../bin/content-conformance.mjs', import.meta.url));
  const systemNode = ['/usr/bin/node', '/usr/local/bin/node'].find((p) => existsSync(p));

  it('when run with a Node that strips types, then it runs the CLI in-process', async () => {
    const run = await runCli(['--version'], { command: [process.execPath, shim] });
    const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^${version.replaceAll('.', '\\.')}\nspec sha256 [0-9a-f]{64}\n$`));
  });

  it.skipIf(!systemNode)(
    'when run with an older Node, then it re-executes with the pinned one and keeps the exit code',
    async () => {
      const version = await runCli(['--version'], { command: [systemNode!, shim] });
      expect(version.code).toBe(0);
      const unreachable = await runCli(['--base-url', 'http://127.0.0.1:9/api', '--spec', MINI_SPEC], {
        command: [systemNode!, shim],
      });
      expect(unreachable.code).toBe(2);
      expect(unreachable.stderr).toContain('target unreachable');
    },
  );
});
