// Test the tester: each deliberately broken variant of the fake target must fail on the
// requirement it breaks, and nothing else may fail. Runs in process (fast); the CLI tests
// cover the same path through vitest.

import { afterEach, describe, expect, it } from 'vitest';
import type { RequirementVerdict, RunResult } from '../engine/results/result.ts';
import type { Fault } from './fakeTarget.ts';
import { GOOD_TOKEN, startFakeTarget } from './fakeTarget.ts';
import { startFaultProxy } from '../selftest/faultProxy.ts';
import { MINI_SPEC } from './runCli.ts';
import { runInProcess } from './runInProcess.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

// The fake target implements just what the framework's own four checks need; the scenario checks
// are tested against the reference service (tests/conformance/).
const FRAMEWORK_CHECKS = 'health.responds,auth.missing-token-401,lists.bare-array,limits.size-cap';

async function runAgainst(faults: readonly Fault[], now?: () => Date): Promise<RunResult> {
  const target = await startFakeTarget({ faults, now });
  close = target.close;
  return runInProcess(['--base-url', target.baseUrl, '--spec', MINI_SPEC, '--seed', '7', '--only', FRAMEWORK_CHECKS], {
    CONFORMANCE_TOKEN: GOOD_TOKEN,
  });
}

function verdicts(result: RunResult, ids: readonly string[]): Record<string, RequirementVerdict | undefined> {
  return Object.fromEntries(ids.map((id) => [id, result.requirements.find((r) => r.id === id)?.verdict]));
}

const failing = (result: RunResult) =>
  result.requirements
    .filter((r) => r.verdict === 'fail' || r.verdict === 'decision-fail')
    .map((r) => r.id)
    .sort();

// Each fault, the verdicts it must produce, and the exit code (decisions never fail a vendor).
const FAULTS: { fault: Fault; exit: number; expect: Record<string, RequirementVerdict> }[] = [
  { fault: 'listWrappedInObject', exit: 1, expect: { 'LIST-001': 'fail', 'AUTH-002': 'pass', 'LIMIT-003': 'pass' } },
  { fault: 'itemMissingTrcid', exit: 1, expect: { 'LIST-001': 'fail', 'HEALTH-001': 'pass' } },
  { fault: 'listWithoutAuth', exit: 1, expect: { 'AUTH-002': 'fail', 'LIST-001': 'pass' } },
  { fault: 'unauthorizedAs403', exit: 0, expect: { 'AUTH-002': 'pass', 'DEC-ERR-002': 'decision-fail' } },
  { fault: 'healthNeedsToken', exit: 0, expect: { 'HEALTH-001': 'pass', 'DEC-MISC-001': 'decision-fail' } },
  { fault: 'sizeCapIgnored', exit: 1, expect: { 'LIMIT-003': 'fail', 'ERR-001': 'fail', 'LIST-001': 'pass' } },
  { fault: 'sizeCapWrongMessage', exit: 1, expect: { 'LIMIT-003': 'pass', 'ERR-001': 'fail' } },
];

describe('the suite against broken targets', () => {
  it('when the target is correct, then nothing fails', async () => {
    const result = await runAgainst([]);
    expect(failing(result)).toEqual([]);
    expect(result.exitCode).toBe(0);
  });

  it('when the traffic goes through the fault proxy without modifiers, then the verdicts are the same', async () => {
    const target = await startFakeTarget();
    const proxy = await startFaultProxy({ target: target.baseUrl, modifiers: [] });
    close = async () => {
      await proxy.close();
      await target.close();
    };
    const result = await runInProcess(
      ['--base-url', proxy.url, '--spec', MINI_SPEC, '--seed', '7', '--only', FRAMEWORK_CHECKS],
      { CONFORMANCE_TOKEN: GOOD_TOKEN },
    );
    expect(failing(result)).toEqual([]);
    expect(result.summary.checks.passed).toBe(FRAMEWORK_CHECKS.split(',').length);
  });

  for (const { fault, exit, expect: expected } of FAULTS) {
    const broken = Object.entries(expected)
      .filter(([, v]) => v.includes('fail'))
      .map(([k]) => k);
    it(`when the target has fault ${fault}, then ${broken.join(', ')} fail(s) and nothing else does`, async () => {
      const result = await runAgainst([fault]);
      expect(result.exitCode).toBe(exit);
      expect(verdicts(result, Object.keys(expected))).toEqual(expected);
      expect(failing(result)).toEqual(broken.sort());
    });
  }

  it('when the response lacks documented headers, then spec validation fails the check that saw it', async () => {
    const result = await runAgainst(['missingRateLimitHeaders']);
    expect(result.exitCode).toBe(1);
    const bare = result.checks.find((c) => c.id === 'lists.bare-array')!;
    expect(bare.failure).toMatchObject({ kind: 'spec', pointer: 'header/X-RateLimit-Limit', received: '(absent)' });
    expect(bare.failure!.exchanges[0]!.problems!.map((p) => p.pointer)).toEqual([
      'header/X-RateLimit-Limit',
      'header/X-RateLimit-Policy',
    ]);
  });

  it("when the target's clock is before 1 November 2026, then the lenient size rule is checked instead", async () => {
    const october = () => new Date('2026-10-15T12:00:00Z');
    const ok = await runAgainst([], october);
    expect(verdicts(ok, ['LIMIT-002', 'LIMIT-003', 'ERR-001'])).toEqual({
      'LIMIT-002': 'pass',
      'LIMIT-003': 'not-verified',
      'ERR-001': 'not-verified',
    });
    await close?.();
    const early = await runAgainst(['sizeCapEarly'], october);
    expect(early.exitCode).toBe(1);
    expect(verdicts(early, ['LIMIT-002'])).toEqual({ 'LIMIT-002': 'fail' });
    expect(early.checks.find((c) => c.id === 'limits.size-cap')!.notes[0]).toBe(
      'server time 2026-10-15T12:00:00.000Z is before 2026-10-31T23:00:00.000Z (1 November 2026, Europe/Amsterdam)',
    );
  });
});
