import { describe, expect, it } from 'vitest';
import type { PlanEntry } from '../plan/select.ts';
import { createCatalogue } from '../../spec/requirements.ts';
import type { Requirement } from '../../spec/requirements.ts';
import type { CheckOutcome } from '../../model/outcome.ts';
import type { BuildInput } from './result.ts';
import { buildResult } from './result.ts';

const req = (
  id: string,
  level: Requirement['level'],
  subject: Requirement['subject'] = 'service',
  extra: Partial<Requirement> = {},
): Requirement => ({ id, level, subject, section: 's', statement: `${id} statement`, ...extra });
const catalogue = createCatalogue([
  req('HEALTH-001', 'MUST'),
  req('LIST-001', 'MUST'),
  req('SYNC-006', 'SHOULD'),
  req('DEC-ERR-002', 'DECISION'),
  req('SYNC-001', 'MUST', 'client'),
  req('HOOK-014', 'MUST', 'receiver'),
  req('FEED-004', 'MUST', 'service', { verify: 'needs-feed', note: 'Needs an inbound feed.' }),
  req('HOOK-019', 'MUST', 'service', {
    verify: 'unobservable',
    note: 'verified by the reference service tests (worker.test.ts).',
  }),
]);

function entry(
  id: string,
  requirements: string[],
  options: Partial<PlanEntry['check']> & { run?: boolean; skipReason?: string } = {},
): PlanEntry {
  const { run = true, skipReason, ...check } = options;
  const levels = requirements.map((r) => catalogue.get(r)!.level);
  const level = levels.includes('MUST') ? 'MUST' : levels.includes('SHOULD') ? 'SHOULD' : 'DECISION';
  return {
    run,
    skipReason,
    check: {
      id,
      title: id,
      group: 'G',
      requirements,
      level,
      tags: [],
      needs: [],
      writes: undefined,
      order: 'normal',
      dependsOn: [],
      ...check,
    },
  };
}

function passed(checkId: string, extra: Partial<CheckOutcome> = {}): CheckOutcome {
  return {
    checkId,
    status: 'passed',
    durationMs: 5,
    unverified: [],
    verified: [],
    notes: [],
    exchangeCount: 1,
    evidence: [],
    ...extra,
  };
}

function failed(checkId: string, requirements: string[], extra: Partial<CheckOutcome> = {}): CheckOutcome {
  return {
    ...passed(checkId),
    status: 'failed',
    failure: { kind: 'assertion', message: `${checkId} broke`, requirements, exchanges: [] },
    ...extra,
  };
}

const INFO: BuildInput['info'] = {
  suite: { name: 'content-conformance', version: '0.1.0' },
  target: 'http://t/api',
  profile: 'consumer',
  seed: 1,
  runId: 'ctf-abcdef',
  spec: { file: 'openapi.json', sha256: 'x' },
  startedAt: '2026-11-22T00:00:00.000Z',
};
const CERTIFICATION = { info: { ...INFO, profile: 'certification' } };

function build(plan: PlanEntry[], outcomes: CheckOutcome[], overrides: Partial<BuildInput> = {}) {
  return buildResult({
    info: INFO,
    finishedAt: new Date('2026-11-22T00:00:02.000Z'),
    plan,
    outcomes: new Map(outcomes.map((o) => [o.checkId, o])),
    catalogue,
    expectedFailures: [],
    cleanup: [],
    ...overrides,
  });
}

const verdictOf = (result: ReturnType<typeof build>, id: string) =>
  result.requirements.find((r) => r.id === id)?.verdict;

describe('buildResult', () => {
  it('when a MUST check fails, then its requirement fails and the run exits 1', () => {
    const r = build([entry('a.one', ['LIST-001'])], [failed('a.one', ['LIST-001'])]);
    expect(verdictOf(r, 'LIST-001')).toBe('fail');
    expect(r).toMatchObject({ verdict: 'fail', exitCode: 1, rootFailure: 'a.one' });
  });

  it('when a SHOULD check fails, then it warns and the run still exits 0', () => {
    const r = build([entry('a.should', ['SYNC-006'])], [failed('a.should', ['SYNC-006'])]);
    expect(verdictOf(r, 'SYNC-006')).toBe('warn');
    expect(r.checks[0]!.failureLevel).toBe('SHOULD');
    expect(r.exitCode).toBe(0);
  });

  it('when a failure is narrowed to a DECISION, then only the decision fails and the MUST counts as verified only if declared', () => {
    const plan = [entry('a.auth', ['LIST-001', 'DEC-ERR-002'])];
    const undeclared = build(plan, [failed('a.auth', ['DEC-ERR-002'])]);
    expect([verdictOf(undeclared, 'LIST-001'), verdictOf(undeclared, 'DEC-ERR-002')]).toEqual([
      'not-verified',
      'decision-fail',
    ]);
    expect(undeclared.exitCode).toBe(0);
    const declared = build(plan, [failed('a.auth', ['DEC-ERR-002'], { verified: ['LIST-001'] })]);
    expect(verdictOf(declared, 'LIST-001')).toBe('pass');
  });

  it('when a passing MUST check saw a response that differs from a decision only, then the decision fails, the MUST passes and nothing fails the run', () => {
    const deviation = {
      decisions: ['DEC-ERR-002'],
      message: 'GET /api/events → 403 differs from our decision',
      exchanges: [],
    };
    const r = build([entry('a.list', ['LIST-001'])], [passed('a.list', { deviations: [deviation] })]);
    expect([verdictOf(r, 'LIST-001'), verdictOf(r, 'DEC-ERR-002')]).toEqual(['pass', 'decision-fail']);
    expect(r.requirements.find((q) => q.id === 'DEC-ERR-002')).toMatchObject({
      checks: ['a.list'],
      reason: `a.list: ${deviation.message}`,
    });
    expect(r.exitCode).toBe(0);
    expect(r.summary.requirements.fail).toBe(0);
  });

  it('when a check passes but notes a requirement as unverified, then that requirement is not verified', () => {
    const r = build(
      [entry('a.cap', ['LIST-001', 'HEALTH-001'])],
      [passed('a.cap', { unverified: [{ requirements: ['HEALTH-001'], reason: 'clock' }] })],
    );
    expect(r.requirements.find((x) => x.id === 'HEALTH-001')).toMatchObject({
      verdict: 'not-verified',
      reason: 'a.cap: clock',
    });
    expect(verdictOf(r, 'LIST-001')).toBe('pass');
  });

  it('when a requirement binds a client or receiver, then it is covered by the client library tests', () => {
    const r = build([], []);
    expect([verdictOf(r, 'SYNC-001'), verdictOf(r, 'HOOK-014')]).toEqual(['client-library', 'client-library']);
  });

  it('when MUST requirements have no check, then the run is incomplete: exit 0 under consumer, exit 3 under full and certification', () => {
    const plan = [entry('a.h', ['HEALTH-001'])];
    const consumer = { info: { ...INFO, profile: 'consumer' } };
    expect(build(plan, [passed('a.h')], consumer)).toMatchObject({ verdict: 'incomplete', exitCode: 0 });
    const full = { info: { ...INFO, profile: 'full' } };
    expect(build(plan, [passed('a.h')], full)).toMatchObject({ verdict: 'incomplete', exitCode: 3 });
    const cert = build(plan, [passed('a.h')], CERTIFICATION);
    expect(cert).toMatchObject({ verdict: 'incomplete', exitCode: 3 });
  });

  it('when the run is incomplete and --allow-incomplete is given, then certification exits 0 with the verdict kept', () => {
    const plan = [entry('a.h', ['HEALTH-001'])];
    const r = build(plan, [passed('a.h')], { ...CERTIFICATION, allowIncomplete: true });
    expect(r).toMatchObject({ verdict: 'incomplete', exitCode: 0 });
  });

  it('when a MUST check is skipped under certification, then it fails as not verified', () => {
    const plan = [entry('a.skip', ['HEALTH-001'], { run: false, skipReason: 'needs an admin token' })];
    const r = build(plan, [], CERTIFICATION);
    expect(r.checks[0]).toMatchObject({ status: 'failed', failureLevel: 'MUST', failure: { kind: 'not-verified' } });
    expect(r.exitCode).toBe(1);
  });

  it('when a requirement is needs-feed or unobservable and no check saw it, then it is reported as not verifiable black-box and the certification still passes', () => {
    const plan = [entry('a.h', ['HEALTH-001']), entry('a.l', ['LIST-001'])];
    const r = build(plan, [passed('a.h'), passed('a.l')], CERTIFICATION);
    expect(r.requirements.find((x) => x.id === 'FEED-004')).toMatchObject({
      verdict: 'not-verifiable',
      reason: 'not verifiable black-box (needs-feed), covered by: Needs an inbound feed.',
    });
    expect(r.requirements.find((x) => x.id === 'HOOK-019')).toMatchObject({
      verdict: 'not-verifiable',
      reason:
        'not verifiable black-box (unobservable), covered by: verified by the reference service tests (worker.test.ts).',
    });
    expect(r.summary.requirements['not-verifiable']).toBe(2);
    expect(r).toMatchObject({ verdict: 'pass', exitCode: 0 });
  });

  it('when a check notes a requirement as unobservable on this target (a rule whose date has passed), then it is not verifiable black-box, not incomplete', () => {
    const plan = [entry('a.cap', ['LIST-001', 'HEALTH-001'])];
    const r = build(
      plan,
      [
        passed('a.cap', {
          unverified: [{ requirements: ['HEALTH-001'], reason: 'the clock is past the date', unobservable: true }],
        }),
      ],
      CERTIFICATION,
    );
    expect(r.requirements.find((x) => x.id === 'HEALTH-001')).toMatchObject({
      verdict: 'not-verifiable',
      reason: 'not verifiable black-box on this target: a.cap: the clock is past the date',
    });
    expect(r).toMatchObject({ verdict: 'pass', exitCode: 0 });
    // Another check that could have verified it but did not keeps it "not verified".
    const both = build(
      [...plan, entry('b.other', ['HEALTH-001'])],
      [
        passed('a.cap', { unverified: [{ requirements: ['HEALTH-001'], reason: 'past', unobservable: true }] }),
        passed('b.other', { unverified: [{ requirements: ['HEALTH-001'], reason: 'no data' }] }),
      ],
      CERTIFICATION,
    );
    expect(verdictOf(both, 'HEALTH-001')).toBe('not-verified');
  });

  it('when a check of only needs-feed MUSTs is skipped under certification, then it stays skipped and does not fail the run', () => {
    const plan = [
      entry('a.h', ['HEALTH-001']),
      entry('a.l', ['LIST-001']),
      entry('feeds.size', ['FEED-004'], { run: false, skipReason: 'needs --feed-id' }),
    ];
    const r = build(plan, [passed('a.h'), passed('a.l')], CERTIFICATION);
    expect(r.checks.find((c) => c.id === 'feeds.size')).toMatchObject({ status: 'skipped' });
    expect(verdictOf(r, 'FEED-004')).toBe('not-verifiable');
    expect(r).toMatchObject({ verdict: 'pass', exitCode: 0 });
    // A skipped check that also covers an observable MUST still fails under certification.
    const mixed = build(
      [entry('a.h', ['HEALTH-001']), entry('feeds.mixed', ['LIST-001', 'FEED-004'], { run: false, skipReason: 'x' })],
      [passed('a.h')],
      CERTIFICATION,
    );
    expect(mixed.checks[1]).toMatchObject({ status: 'failed', failure: { kind: 'not-verified' } });
  });

  it('when a check does observe a needs-feed requirement, then its verdict counts as for any other', () => {
    const plan = [entry('a.h', ['HEALTH-001']), entry('a.l', ['LIST-001']), entry('feeds.size', ['FEED-004'])];
    expect(
      verdictOf(build(plan, [passed('a.h'), passed('a.l'), passed('feeds.size')], CERTIFICATION), 'FEED-004'),
    ).toBe('pass');
    const failing = build(plan, [passed('a.h'), passed('a.l'), failed('feeds.size', ['FEED-004'])], CERTIFICATION);
    expect(verdictOf(failing, 'FEED-004')).toBe('fail');
    expect(failing).toMatchObject({ verdict: 'fail', exitCode: 1 });
  });

  it('when a failure is waived, then it does not fail the run and the waiver is listed as applied', () => {
    const plan = [entry('a.one', ['LIST-001'])];
    const expectedFailures = [{ requirement: 'LIST-*', reason: 'known', owner: 'qa', expires: '2026-12-31' }];
    const xfail = build(plan, [failed('a.one', ['LIST-001'])], { expectedFailures });
    expect(xfail.checks[0]).toMatchObject({ status: 'expected-failure', expectedFailureReason: 'known' });
    expect(verdictOf(xfail, 'LIST-001')).toBe('expected-failure');
    expect(xfail.exitCode).toBe(0);
    expect(xfail.waivers).toEqual([
      { ...expectedFailures[0], state: 'applied', checks: ['a.one'], message: 'waives the failure of a.one' },
    ]);
  });

  it('when a waived check now passes, then the stale waiver fails the run with its own message', () => {
    const plan = [entry('a.one', ['LIST-001'])];
    const expectedFailures = [{ check: 'a.one', reason: 'known', owner: 'qa', expires: '2026-12-31' }];
    const xpass = build(plan, [passed('a.one')], { expectedFailures });
    expect(xpass.checks[0]!.status).toBe('unexpected-pass');
    expect(xpass).toMatchObject({ verdict: 'fail', exitCode: 1 });
    expect(xpass.waivers).toMatchObject([
      {
        state: 'stale',
        message: 'stale waiver for check a.one (owner qa): a.one now passes; remove it from the expected-failures file',
      },
    ]);
  });

  it('when a waiver expired before the run started, then it waives nothing and fails the run, even if the check passes', () => {
    const plan = [entry('a.one', ['LIST-001']), entry('a.two', ['HEALTH-001'])];
    const expectedFailures = [
      { check: 'a.one', reason: 'known', owner: 'qa', expires: '2026-11-21' },
      { requirement: 'HEALTH-001', reason: 'known', owner: 'ops', expires: '2026-11-21' },
    ];
    const r = build(plan, [failed('a.one', ['LIST-001']), passed('a.two')], { expectedFailures });
    expect(r.checks.map((c) => c.status)).toEqual(['failed', 'passed']);
    expect(r).toMatchObject({ verdict: 'fail', exitCode: 1 });
    expect(r.waivers!.map((w) => [w.state, w.message])).toEqual([
      [
        'expired',
        'waiver for check a.one expired on 2026-11-21 (owner qa): it waives nothing now; fix the target, or renew the waiver with a new date',
      ],
      [
        'expired',
        'waiver for requirement HEALTH-001 expired on 2026-11-21 (owner ops): it waives nothing now; fix the target, or renew the waiver with a new date',
      ],
    ]);
    // The last day itself still holds (the run started on 2026-11-22).
    const lastDay = [{ check: 'a.one', reason: 'known', owner: 'qa', expires: '2026-11-22' }];
    expect(build(plan, [failed('a.one', ['LIST-001']), passed('a.two')], { expectedFailures: lastDay })).toMatchObject({
      exitCode: 0,
      waivers: [{ state: 'applied' }],
    });
  });

  it('when a dependency failed too, then the root failure is the dependency', () => {
    const plan = [entry('b.list', ['LIST-001'], { dependsOn: ['a.health'] }), entry('a.health', ['HEALTH-001'])];
    const r = build(plan, [failed('b.list', ['LIST-001']), failed('a.health', ['HEALTH-001'])]);
    expect(r.rootFailure).toBe('a.health');
  });

  it('when a planned check reported nothing, then it fails with the reason', () => {
    const r = build([entry('a.lost', ['LIST-001'])], [], { missingReason: 'worker crashed' });
    expect(r.checks[0]!.failure!.message).toBe('the check reported no result: worker crashed');
  });

  it('when counting, then the summary adds up', () => {
    const r = build(
      [entry('a.one', ['LIST-001']), entry('a.two', ['HEALTH-001'], { run: false, skipReason: 'x' })],
      [passed('a.one')],
    );
    expect(r.summary.checks).toEqual({ passed: 1, failed: 0, skipped: 1, 'expected-failure': 0, 'unexpected-pass': 0 });
    expect(r.summary.requirements['client-library']).toBe(2);
    expect(r.durationMs).toBe(2000);
  });
});
