// The stateless subset of the suite (consumer profile, read-only) against the Prism mock on the
// bundled spec (mock/start.ts: SCARF_ANALYTICS=false, never -m). The outcome must match
// conformance/expected/prism.yaml exactly: the requirements under `meets` pass, those under
// `expectedFailures` fail (an expected failure that passes fails the run), nothing else does.

import { readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExpectedFailures } from '../../conformance/engine/plan/expectedFailures.ts';
import type { RunResult } from '../../conformance/engine/results/result.ts';
import { startPrism } from '../../mock/start.ts';
import type { RunningPrism } from '../../mock/start.ts';
import { freePort } from './support/feedPartner.ts';
import { ROOT } from './support/referenceService.ts';
import { runSuite } from './support/runSuite.ts';
import type { SuiteRun } from './support/runSuite.ts';

const EXPECTED = join(ROOT, 'conformance/expected/prism.yaml');

let prism: RunningPrism | undefined;
let run: SuiteRun;
let result: RunResult;
let meets: string[];
let listed: string[];

describe('content-conformance against the Prism mock (stateless subset)', () => {
  beforeAll(async () => {
    const text = await readFile(EXPECTED, 'utf8');
    meets = ((parse(text) as { meets?: string[] }).meets ?? []).slice().sort();
    listed = parseExpectedFailures(text, EXPECTED)
      .map((e) => e.requirement ?? `check:${e.check}`)
      .sort();
    prism = await startPrism({ port: await freePort() });
    run = await runSuite(
      ['--base-url', prism.url, '--profile', 'consumer', '--expected-failures', EXPECTED, '--seed', '3'],
      {
        env: { CONFORMANCE_TOKEN: 'any-token-prism-accepts' },
        reportDir: await mkdtemp(join(tmpdir(), 'ctf-prism-')),
        timeoutMs: 180_000,
      },
    );
    result = await run.result();
    console.info(
      `conformance subset against Prism: ${(run.wallMs / 1000).toFixed(1)} s wall time, ${result.checks.filter((c) => c.status !== 'skipped').length} checks run (Prism up after ${prism.firstAnswerMs} ms)`,
    );
  }, 240_000);

  afterAll(async () => {
    await prism?.stop();
  });

  it('when run with the expected-failures file, then it exits 0 and nothing fails unexpectedly', () => {
    expect(run.code, run.stdout.slice(-6000) + run.stderr).toBe(0);
    expect(
      result.checks
        .filter((c) => c.status === 'unexpected-pass')
        .map((c) => `${c.id}: listed as "${c.expectedFailureReason}"`),
    ).toEqual([]);
    expect(
      result.requirements
        .filter((r) => r.verdict === 'fail' || r.verdict === 'warn' || r.verdict === 'decision-fail')
        .map((r) => r.id),
    ).toEqual([]);
  });

  it('when the outcome is compared with conformance/expected/prism.yaml, then the failing requirements are exactly the listed ones', () => {
    const failed = result.requirements
      .filter((r) => r.verdict === 'expected-failure')
      .map((r) => r.id)
      .sort();
    const checkEntries = listed.filter((l) => l.startsWith('check:'));
    expect({ failing: failed, checkEntries }, 'update expectedFailures in conformance/expected/prism.yaml').toEqual({
      failing: listed.filter((l) => !l.startsWith('check:')),
      checkEntries: [],
    });
  });

  it('when the outcome is compared with conformance/expected/prism.yaml, then the requirements the mock meets are exactly those under meets', () => {
    const passed = result.requirements
      .filter((r) => r.verdict === 'pass' || r.verdict === 'decision-pass')
      .map((r) => r.id)
      .sort();
    const missing = meets.filter((id) => !passed.includes(id));
    const extra = passed.filter((id) => !meets.includes(id));
    expect({ 'listed under meets but not passing': missing, 'passing but not listed under meets': extra }).toEqual({
      'listed under meets but not passing': [],
      'passing but not listed under meets': [],
    });
  });
});
