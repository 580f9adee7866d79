// The run result: per check what happened, per requirement the verdict, and the overall verdict
// and exit code. Every reporter renders this one object; the JSON report is this object.
//
// Levels decide consequences: a MUST failure fails the run, a SHOULD failure warns, a DECISION
// failure is reported apart and never fails; so is a response that conforms to the interface
// layer but not to our decisions (a deviation, recorded on the DEC ids it differs in). "Could
// not verify" is not a pass: under the certification profile a skipped MUST check fails, and
// uncovered MUST requirements leave the run incomplete (exit 3 under full and certification, 0 under
// consumer, the read-only subset). Requirements a black-box run cannot observe (`verify: needs-feed |
// unobservable` in the catalogue) are reported as "not verifiable black-box" with the note saying
// where they are verified instead; they never fail a run nor leave it incomplete.

import type { VariantLine } from '../../model/variants.ts';
import type { ExpectedFailure } from '../plan/expectedFailures.ts';
import { findExpectedFailure } from '../plan/expectedFailures.ts';
import { GATING_PROFILES } from '../plan/credentials.ts';
import type { WaiverResult } from './waivers.ts';
import { reviewWaivers, waiverFailsRun } from './waivers.ts';
import type { CheckInfo, PlanEntry } from '../plan/select.ts';
import type { Level, Subject } from '../../model/levels.ts';
import { strongestLevel } from '../../model/levels.ts';
import type { CleanupResult } from '../runtime/cleanup.ts';
import type { Requirement, RequirementCatalogue } from '../../spec/requirements.ts';
import { isBlackbox } from '../../spec/requirements.ts';
import type { CheckOutcome, DeviationRecord, FailureRecord, UnverifiedNote } from '../../model/outcome.ts';
import type { Exchange } from '../../model/exchange.ts';

export const RESULT_SCHEMA = 'content-conformance-result/1';

export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'expected-failure' | 'unexpected-pass';

export interface CheckResult extends CheckInfo {
  status: CheckStatus;
  durationMs: number;
  skipReason?: string;
  failure?: FailureRecord;
  /** For failures: the strongest level among the requirements the failure is about. */
  failureLevel?: Level;
  expectedFailureReason?: string;
  unverified: UnverifiedNote[];
  verified: string[];
  notes: string[];
  /** Responses that conform to the interface but differ from our decisions (absent: none). */
  deviations?: DeviationRecord[];
  exchangeCount: number;
  evidence: Exchange[];
}

export type RequirementVerdict =
  | 'pass'
  | 'fail'
  | 'warn'
  | 'not-verified'
  /** verify: needs-feed | unobservable, and no check saw it: reported with where it is verified instead. */
  | 'not-verifiable'
  | 'expected-failure'
  | 'decision-pass'
  | 'decision-fail'
  | 'client-library';

export interface RequirementResult {
  id: string;
  level: Level;
  subject: Subject;
  section: string;
  statement: string;
  verdict: RequirementVerdict;
  checks: string[];
  reason?: string;
}

export type OverallVerdict = 'pass' | 'fail' | 'incomplete';

export interface RunInfo {
  suite: { name: string; version: string };
  target: string;
  profile: string;
  /** The seed of the run's generated data; absent when nothing in it is random (a receiver run). */
  seed?: number;
  runId: string;
  spec: { file: string; sha256: string };
  startedAt: string;
  /** The target's choices where the interface is silent, and where each came from (see discovery/). */
  targetVariants?: VariantLine[];
}

export interface RunResult extends RunInfo {
  schema: typeof RESULT_SCHEMA;
  finishedAt: string;
  durationMs: number;
  verdict: OverallVerdict;
  /** 0 pass, 1 fail, 3 INCOMPLETE under full or certification (unless --allow-incomplete). */
  exitCode: 0 | 1 | 3;
  rootFailure?: string;
  summary: {
    checks: Record<CheckStatus, number>;
    requirements: Record<RequirementVerdict, number>;
  };
  checks: CheckResult[];
  requirements: RequirementResult[];
  cleanup: CleanupResult[];
  /** What became of each waiver (--expected-failures); stale and expired ones fail the run. */
  waivers?: WaiverResult[];
}

export interface BuildInput {
  info: RunInfo;
  finishedAt: Date;
  plan: readonly PlanEntry[];
  outcomes: ReadonlyMap<string, CheckOutcome>;
  catalogue: RequirementCatalogue;
  expectedFailures: readonly ExpectedFailure[];
  cleanup: CleanupResult[];
  /** Why planned checks have no outcome (e.g. the worker crashed). */
  missingReason?: string;
  /** --allow-incomplete: an INCOMPLETE verdict exits 0 under full and certification too. */
  allowIncomplete?: boolean;
  /** Default: the service; the receiver certification judges `receiver` requirements. */
  judged?: Subject;
}

/** Exit codes of a run (2, could not run, never has a result). */
export const EXIT_CODE = { pass: 0, fail: 1, cannotRun: 2, incomplete: 3 } as const;

function failureLevel(check: CheckInfo, failure: FailureRecord, catalogue: RequirementCatalogue): Level {
  const levels = failure.requirements.map((r) => catalogue.get(r)?.level ?? check.level);
  return strongestLevel(levels) ?? check.level;
}

/** Whether a check covers a MUST a black-box run can observe (a skip of only needs-feed or unobservable MUSTs is no certification failure). */
function coversObservableMust(check: CheckInfo, catalogue: RequirementCatalogue): boolean {
  if (check.level !== 'MUST') return false;
  const known = check.requirements.map((id) => catalogue.get(id)).filter((r): r is Requirement => r !== undefined);
  if (known.length < check.requirements.length) return true;
  return known.some((r) => r.level === 'MUST' && isBlackbox(r));
}

/** The reason shown for a requirement a black-box run cannot observe. */
export function notVerifiableReason(req: Requirement): string {
  return `not verifiable black-box (${req.verify ?? 'blackbox'}), covered by: ${req.note ?? 'no note given'}`;
}

export type ResolveInput = Pick<BuildInput, 'info' | 'catalogue' | 'expectedFailures' | 'missingReason'>;

/** One check's result from its plan entry and outcome: certification and expected failures applied. */
export function resolveCheckResult(
  entry: PlanEntry,
  outcome: CheckOutcome | undefined,
  input: ResolveInput,
): CheckResult {
  const { check } = entry;
  let result: CheckResult;
  if (!entry.run) {
    result = {
      ...check,
      status: 'skipped',
      durationMs: 0,
      skipReason: entry.skipReason,
      unverified: [],
      verified: [],
      notes: [],
      exchangeCount: 0,
      evidence: [],
    };
  } else if (!outcome) {
    const failure: FailureRecord = {
      kind: 'error',
      message: `the check reported no result${input.missingReason ? `: ${input.missingReason}` : ''}`,
      requirements: [...check.requirements],
      exchanges: [],
    };
    result = {
      ...check,
      status: 'failed',
      durationMs: 0,
      failure,
      unverified: [],
      verified: [],
      notes: [],
      exchangeCount: 0,
      evidence: [],
    };
  } else {
    result = { ...check, ...outcome, status: outcome.status };
    delete (result as Partial<CheckOutcome>).checkId;
  }

  if (
    result.status === 'skipped' &&
    input.info.profile === 'certification' &&
    coversObservableMust(check, input.catalogue)
  ) {
    result.status = 'failed';
    result.failure = {
      kind: 'not-verified',
      message: `could not verify: ${result.skipReason ?? 'skipped'}. The certification profile allows no skips of MUST checks.`,
      requirements: [...check.requirements],
      exchanges: [],
    };
  }
  if (result.status === 'failed' && result.failure) {
    result.failureLevel = failureLevel(check, result.failure, input.catalogue);
    const expected = findExpectedFailure(
      input.expectedFailures,
      check.id,
      result.failure.requirements,
      new Date(input.info.startedAt),
    );
    if (expected) {
      result.status = 'expected-failure';
      result.expectedFailureReason = expected.reason;
    }
  } else if (result.status === 'passed') {
    const unverified = new Set(result.unverified.flatMap((u) => u.requirements));
    const verified = check.requirements.filter((r) => !unverified.has(r));
    const expected = findExpectedFailure(input.expectedFailures, check.id, verified, new Date(input.info.startedAt));
    if (expected) {
      result.status = 'unexpected-pass';
      result.expectedFailureReason = expected.reason;
    }
  }
  return result;
}

type Contribution = 'fail' | 'expected' | 'pass' | 'unverified' | 'unobservable';

function contribution(check: CheckResult, requirement: string): { kind: Contribution; reason?: string } {
  if ((check.status === 'failed' || check.status === 'expected-failure') && check.failure) {
    if (check.failure.requirements.includes(requirement))
      return { kind: check.status === 'failed' ? 'fail' : 'expected' };
    if (check.verified.includes(requirement)) return { kind: 'pass' };
    return { kind: 'unverified', reason: `${check.id} failed on another requirement first` };
  }
  if (check.status === 'passed' || check.status === 'unexpected-pass') {
    const note = check.unverified.find((u) => u.requirements.includes(requirement));
    if (!note) return { kind: 'pass' };
    return { kind: note.unobservable ? 'unobservable' : 'unverified', reason: `${check.id}: ${note.reason}` };
  }
  return { kind: 'unverified', reason: `${check.id} skipped: ${check.skipReason ?? 'no reason given'}` };
}

export function requirementResults(
  checks: readonly CheckResult[],
  catalogue: RequirementCatalogue,
  /** Whose obligations this run judges: the service (the main suite) or a webhook receiver. */
  judged: Subject = 'service',
): RequirementResult[] {
  return catalogue.all.map((req) => {
    const covering = checks.filter((c) => c.requirements.includes(req.id));
    const base = {
      id: req.id,
      level: req.level,
      subject: req.subject,
      section: req.section,
      statement: req.statement,
      checks: covering.map((c) => c.id),
    };
    if (req.subject !== judged)
      return {
        ...base,
        verdict: 'client-library',
        reason: `a ${req.subject} obligation: covered by the client library tests`,
      };
    const parts = covering.map((c) => contribution(c, req.id));
    const has = (k: Contribution) => parts.some((p) => p.kind === k);
    if (has('fail'))
      return { ...base, verdict: req.level === 'MUST' ? 'fail' : req.level === 'SHOULD' ? 'warn' : 'decision-fail' };
    // A response valid in the interface layer but not in the full spec: a deviation, whichever check saw it.
    const deviating = checks.filter((c) => c.deviations?.some((d) => d.decisions.includes(req.id)));
    if (deviating.length > 0) {
      const first = deviating[0]!.deviations!.find((d) => d.decisions.includes(req.id))!;
      return {
        ...base,
        checks: [...new Set([...base.checks, ...deviating.map((c) => c.id)])],
        verdict: 'decision-fail',
        reason: `${deviating[0]!.id}: ${first.message}`,
      };
    }
    if (has('expected')) return { ...base, verdict: 'expected-failure' };
    if (has('pass')) return { ...base, verdict: req.level === 'DECISION' ? 'decision-pass' : 'pass' };
    if (!isBlackbox(req)) return { ...base, verdict: 'not-verifiable', reason: notVerifiableReason(req) };
    if (has('unobservable') && !has('unverified'))
      return {
        ...base,
        verdict: 'not-verifiable',
        reason: `not verifiable black-box on this target: ${parts
          .map((p) => p.reason)
          .filter(Boolean)
          .join('; ')}`,
      };
    if (covering.length === 0) return { ...base, verdict: 'not-verified', reason: 'no check covers it yet' };
    return {
      ...base,
      verdict: 'not-verified',
      reason: parts
        .map((p) => p.reason)
        .filter(Boolean)
        .join('; '),
    };
  });
}

function rootFailure(checks: readonly CheckResult[]): string | undefined {
  const failing = checks.filter((c) => c.status === 'failed' && c.failureLevel === 'MUST');
  const failed = new Set(failing.map((c) => c.id));
  return (failing.find((c) => c.dependsOn.every((d) => !failed.has(d))) ?? failing[0])?.id;
}

function count<K extends string>(keys: readonly K[], values: readonly K[]): Record<K, number> {
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const v of values) out[v]++;
  return out;
}

export function buildResult(input: BuildInput): RunResult {
  const checks = input.plan.map((entry) => resolveCheckResult(entry, input.outcomes.get(entry.check.id), input));
  const judged = input.judged ?? 'service';
  const requirements = requirementResults(checks, input.catalogue, judged);
  const waivers = reviewWaivers(input.expectedFailures, checks, new Date(input.info.startedAt));
  const mustFailed =
    checks.some((c) => c.status === 'failed' && c.failureLevel === 'MUST') ||
    checks.some((c) => c.status === 'unexpected-pass') ||
    waivers.some(waiverFailsRun);
  const mustUnverified = requirements.some(
    (r) => r.level === 'MUST' && r.subject === judged && r.verdict === 'not-verified',
  );
  const verdict: OverallVerdict = mustFailed ? 'fail' : mustUnverified ? 'incomplete' : 'pass';
  const exitCode = mustFailed
    ? EXIT_CODE.fail
    : verdict === 'incomplete' && GATING_PROFILES.includes(input.info.profile) && !input.allowIncomplete
      ? EXIT_CODE.incomplete
      : EXIT_CODE.pass;
  const started = new Date(input.info.startedAt);
  return {
    schema: RESULT_SCHEMA,
    ...input.info,
    finishedAt: input.finishedAt.toISOString(),
    durationMs: input.finishedAt.getTime() - started.getTime(),
    verdict,
    exitCode,
    rootFailure: rootFailure(checks),
    summary: {
      checks: count(
        ['passed', 'failed', 'skipped', 'expected-failure', 'unexpected-pass'],
        checks.map((c) => c.status),
      ),
      requirements: count(
        [
          'pass',
          'fail',
          'warn',
          'not-verified',
          'not-verifiable',
          'expected-failure',
          'decision-pass',
          'decision-fail',
          'client-library',
        ],
        requirements.map((r) => r.verdict),
      ),
    },
    checks,
    requirements,
    cleanup: input.cleanup,
    waivers,
  };
}
