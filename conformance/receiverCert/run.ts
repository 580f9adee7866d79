// One receiver certification: send every receiver check's deliveries to the receiver, judge the
// answers against the receiver requirements, and hand the result to the suite's own reporters
// (console, JUnit, JSON, HTML with its integrity hash).

import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { PACKAGE_ROOT } from '../config/config.ts';
import type { FileReporter, ReportFile, Reporter, RunEvent } from '../engine/events.ts';
import { groupOf } from '../engine/plan/order.ts';
import type { PlanEntry } from '../engine/plan/select.ts';
import { newRunId } from '../model/runId.ts';
import type { RunInfo, RunResult } from '../engine/results/result.ts';
import { buildResult, resolveCheckResult } from '../engine/results/result.ts';
import { formatValue } from '../model/outcome.ts';
import type { CheckOutcome, FailureRecord } from '../model/outcome.ts';
import { isCheckFailure } from '../model/failure.ts';
import { createConsoleReporter } from '../reporters/console.ts';
import { htmlReporter } from '../reporters/html.ts';
import { jsonReporter } from '../reporters/json.ts';
import { junitReporter } from '../reporters/junit.ts';
import { strongestLevel } from '../model/levels.ts';
import { createCatalogue, loadRequirements } from '../spec/requirements.ts';
import type { RequirementCatalogue } from '../spec/requirements.ts';
import { loadSpec } from '../../spec/index.ts';
import { suiteVersion } from '../version.ts';
import type { ReceiverCheck } from './cases.ts';
import { RECEIVER_CHECKS } from './cases.ts';
import { createSender } from './send.ts';

/** HOOK-017: any 2xx within 5 seconds. */
export const ACK_LIMIT_MS = 5_000;

export interface ReceiverCertOptions {
  url: string;
  secret: string;
  /** Default ACK_LIMIT_MS; the self-tests shorten it to keep the machine free. */
  ackTimeoutMs?: number;
  /** Check ids to run (default: all). */
  only?: readonly string[];
}

export type ReporterKind = 'console' | ReportFile['kind'];

export interface ReceiverRunOptions extends ReceiverCertOptions {
  reportDir: string;
  reporters: readonly ReporterKind[];
  color: boolean;
}

const FILE_REPORTERS: Record<ReportFile['kind'], FileReporter> = {
  junit: junitReporter,
  json: jsonReporter,
  html: htmlReporter,
};

/** The receiver's obligations only: the service's are judged by the main suite. */
export async function receiverCatalogue(): Promise<RequirementCatalogue> {
  const all = await loadRequirements(resolve(PACKAGE_ROOT, 'spec/requirements.yaml'));
  return createCatalogue(all.all.filter((r) => r.subject === 'receiver'));
}

function planOf(checks: readonly ReceiverCheck[], catalogue: RequirementCatalogue, only: readonly string[]) {
  return checks.map((c): PlanEntry => {
    const run = only.length === 0 || only.includes(c.id);
    return {
      check: {
        id: c.id,
        title: c.title,
        group: groupOf(c.requirements),
        requirements: [...c.requirements],
        level: strongestLevel(c.requirements.map((r) => catalogue.get(r)?.level ?? 'MUST')) ?? 'MUST',
        tags: ['receiver'],
        needs: [],
        writes: undefined,
        order: 'normal',
        dependsOn: [],
      },
      run,
      ...(run ? {} : { skipReason: 'not selected (--only)' }),
    };
  });
}

async function runCheck(
  check: ReceiverCheck,
  options: ReceiverCertOptions,
  ackTimeoutMs: number,
): Promise<CheckOutcome> {
  const sender = createSender(options.url, ackTimeoutMs);
  const verified = new Set<string>();
  const notes: string[] = [];
  const started = performance.now();
  let failure: FailureRecord | undefined;
  try {
    await check.run({
      secret: options.secret,
      ackTimeoutMs,
      send: (d, note) => sender.send(d, note),
      verified: (...ids) => ids.forEach((id) => verified.add(id)),
      note: (text) => notes.push(text),
    });
  } catch (error) {
    failure = isCheckFailure(error)
      ? {
          kind: error.kind,
          message: error.message,
          received: formatValue(error.received),
          expected: formatValue(error.expected),
          requirements: [...(error.requirements ?? check.requirements)],
          exchanges: [...error.exchanges],
        }
      : {
          kind: 'error',
          message: `the check could not run: ${(error as Error).message}`,
          requirements: [...check.requirements],
          exchanges: [],
          stack: (error as Error).stack,
        };
  }
  return {
    checkId: check.id,
    status: failure ? 'failed' : 'passed',
    durationMs: Math.round(performance.now() - started),
    ...(failure ? { failure } : {}),
    unverified: [],
    verified: [...verified],
    notes,
    exchangeCount: sender.exchanges.length,
    evidence: sender.exchanges.slice(0, 5),
  };
}

/** Runs the checks and builds the result; events go to `emit` as they happen. */
export async function certifyReceiver(
  options: ReceiverCertOptions,
  emit: (event: RunEvent) => Promise<void> = async () => {},
): Promise<RunResult> {
  const ackTimeoutMs = options.ackTimeoutMs ?? ACK_LIMIT_MS;
  const catalogue = await receiverCatalogue();
  const plan = planOf(RECEIVER_CHECKS, catalogue, options.only ?? []);
  const spec = loadSpec(resolve(PACKAGE_ROOT, 'generated/openapi.json'));
  const info: RunInfo = {
    suite: { name: 'content-conformance receiver', version: await suiteVersion() },
    target: options.url,
    profile: 'receiver',
    runId: newRunId(),
    spec: { file: basename(spec.file), sha256: spec.sha256 },
    startedAt: new Date().toISOString(),
  };
  const resolveInput = { info, catalogue, expectedFailures: [] };
  const outcomes = new Map<string, CheckOutcome>();
  await emit({ type: 'run-start', info, plan });
  for (const entry of plan) {
    const check = RECEIVER_CHECKS.find((c) => c.id === entry.check.id)!;
    if (entry.run) {
      await emit({ type: 'check-start', check: entry.check });
      outcomes.set(check.id, await runCheck(check, options, ackTimeoutMs));
    }
    await emit({ type: 'check-end', result: resolveCheckResult(entry, outcomes.get(check.id), resolveInput) });
  }
  return buildResult({
    info,
    finishedAt: new Date(),
    plan,
    outcomes,
    catalogue,
    expectedFailures: [],
    cleanup: [],
    judged: 'receiver',
  });
}

/** The CLI's run: certify, write the report files, print; returns the exit code (0 pass, 1 fail). */
export async function runReceiverCert(options: ReceiverRunOptions, io: { stdout: Writable }): Promise<number> {
  const reporters: Reporter[] = options.reporters.includes('console')
    ? [createConsoleReporter({ out: io.stdout, color: options.color })]
    : [];
  const emit = async (event: RunEvent) => {
    for (const r of reporters) await r.onEvent(event);
  };
  const result = await certifyReceiver(options, emit);
  const files: ReportFile[] = [];
  const kinds = (['junit', 'json', 'html'] as const).filter((k) => options.reporters.includes(k));
  if (kinds.length > 0) await mkdir(options.reportDir, { recursive: true });
  for (const kind of kinds) {
    const reporter = FILE_REPORTERS[kind];
    const path = join(options.reportDir, reporter.fileName);
    await writeFile(path, reporter.render(result));
    files.push({ kind, path });
  }
  await emit({ type: 'run-end', result, files });
  return result.exitCode;
}
