// One conformance run, in this process, as the CLI and the suite's own tests make it: load the
// catalogue, the checks and the spec; plan; fail closed on missing credentials; probe the target;
// discover its variants; run the plan (executePlan) and build the result. Everything it has to
// say goes out as events; the caller's reporters turn them into output. A CannotRun error means
// exit 2: nothing was certified.

import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConformanceConfig } from '../../config/config.ts';
import { loadSpec, type LoadedSpec } from '../../../spec/index.ts';
import { describeVariants } from '../../model/variants.ts';
import { assertPortFree } from '../../partner/feedPartner.ts';
import { loadPartnerTls, PartnerTlsError } from '../../partner/partnerTls.ts';
import { selfSignedTls } from '../../receiver/selfSignedTls.ts';
import { loadRequirements, RequirementsError } from '../../spec/requirements.ts';
import type { RequirementCatalogue } from '../../spec/requirements.ts';
import { createResponseValidator } from '../../spec/responseValidator.ts';
import { discoverVariants } from '../discovery/discover.ts';
import type { ReportFile, RunEvent } from '../events.ts';
import { describeMissing, missingCredentials } from '../plan/credentials.ts';
import { CHECKS_DIR, CheckLoadError, loadChecks } from '../plan/loadChecks.ts';
import type { PlanEntry } from '../plan/select.ts';
import { planChecks, unmatchedPatterns } from '../plan/select.ts';
import { probeTarget } from '../probeTarget.ts';
import type { RunInfo, RunResult } from '../results/result.ts';
import { buildResult, resolveCheckResult } from '../results/result.ts';
import { createRuntime } from '../runtime/runtime.ts';
import type { Check } from '../../model/check.ts';
import { executePlan } from './executePlan.ts';

/** The webhook receiver's certificate outlives any run; a new one is made for each run. */
const RECEIVER_CERT_VALID_MS = 2 * 24 * 3600_000;

/** The suite could not run (exit 2); the message says why. */
export class CannotRun extends Error {
  override readonly name = 'CannotRun';
}

export interface Prepared {
  catalogue: RequirementCatalogue;
  checks: Check[];
  plan: PlanEntry[];
}

/** Catalogue, checks and plan; a broken catalogue or check, or a pattern matching nothing, cannot run. */
export async function prepareRun(config: ConformanceConfig): Promise<Prepared> {
  let catalogue: RequirementCatalogue;
  try {
    catalogue = await loadRequirements(config.requirementsFile);
  } catch (error) {
    if (error instanceof RequirementsError) throw new CannotRun(`requirements error: ${error.message}`);
    throw error;
  }
  let checks: Check[];
  try {
    checks = await loadChecks(fileURLToPath(CHECKS_DIR), catalogue);
  } catch (error) {
    if (error instanceof CheckLoadError) throw new CannotRun(error.message);
    throw error;
  }
  const plan = planChecks(checks, catalogue, config);
  const unmatched = unmatchedPatterns(
    plan.map((e) => e.check),
    [...config.only, ...config.skip],
  );
  if (unmatched.length > 0)
    throw new CannotRun(`--only/--skip pattern(s) match no check, requirement or tag: ${unmatched.join(', ')}`);
  return { catalogue, checks, plan };
}

/** The credentials a writing profile's selected checks need and nobody gave, as one message. */
export function credentialProblem(plan: readonly PlanEntry[], config: ConformanceConfig): string | undefined {
  const missing = missingCredentials(plan, config);
  return missing.length > 0 ? describeMissing(missing, config.profile) : undefined;
}

function loadValidSpec(file: string): LoadedSpec {
  try {
    const spec = loadSpec(file);
    createResponseValidator(spec.document); // compiles the document once: a broken spec stops here
    return spec;
  } catch (error) {
    throw new CannotRun(`spec error: ${(error as Error).message}`);
  }
}

export interface RunSuiteOptions {
  version: string;
  /** Receives every event, one at a time, in order. */
  emit(event: RunEvent): Promise<void>;
  /** Writes the report files of the finished result (the run-end event lists them). */
  writeReports?(result: RunResult): Promise<ReportFile[]>;
  /** Lines for the user that are no events (where the feed partner listens). */
  notice?(line: string): void;
}

export async function runSuite(config: ConformanceConfig, options: RunSuiteOptions): Promise<RunResult> {
  const { catalogue, checks, plan } = await prepareRun(config);
  // Fail closed before anything runs: a writing profile without its tokens is no gate.
  const problem = credentialProblem(plan, config);
  if (problem) throw new CannotRun(problem);

  const spec = loadValidSpec(config.specFile);
  const probe = await probeTarget(config.baseUrl!, config.tokens.consumer, config.timeoutMs);
  if (!probe.ok) throw new CannotRun(probe.message);
  const variants = await discoverVariants(config);
  const runConfig: ConformanceConfig = { ...config, variants };

  const runnable = plan.filter((e) => e.run);
  const needsReceiver = runnable.some((e) => e.check.needs.includes('webhook'));
  let receiverTls: { key: string; cert: string } | undefined;
  if (needsReceiver && config.receiver.tls) {
    receiverTls = await selfSignedTls([config.receiver.host, 'localhost', '127.0.0.1'], RECEIVER_CERT_VALID_MS);
    await mkdir(config.reportDir, { recursive: true });
    await writeFile(join(config.reportDir, 'receiver-cert.pem'), receiverTls.cert);
  }
  const feedPartnerTls = await partnerTls(config, runnable, options.notice);

  const info: RunInfo = {
    suite: { name: 'content-conformance', version: options.version },
    target: config.baseUrl!,
    profile: config.profile,
    seed: config.seed,
    runId: config.runId,
    spec: { file: basename(spec.file), sha256: spec.sha256 },
    startedAt: new Date().toISOString(),
    targetVariants: describeVariants(variants),
  };
  const resolveInput = { info, catalogue, expectedFailures: config.expectedFailures };
  await options.emit({ type: 'run-start', info, plan });

  const runtime = await createRuntime({ config: runConfig, needsReceiver, receiverTls, feedPartnerTls });
  // A promise a check forgot to await must not end the run (Node would exit on it): say so instead.
  const onStray = (reason: unknown) =>
    options.notice?.(`warning: a check left an unhandled error: ${(reason as Error)?.message ?? String(reason)}`);
  process.on('unhandledRejection', onStray);
  let execution;
  try {
    execution = await executePlan({
      plan,
      checks: new Map(checks.map((c) => [c.id, c])),
      runtime,
      resolve: (entry, outcome) => resolveCheckResult(entry, outcome, resolveInput),
      emit: options.emit,
      concurrency: config.concurrency,
    });
  } finally {
    process.off('unhandledRejection', onStray);
    await runtime.close();
  }

  const result = buildResult({
    info,
    finishedAt: new Date(),
    plan,
    outcomes: execution.outcomes,
    catalogue,
    expectedFailures: config.expectedFailures,
    cleanup: execution.cleanup.results,
    allowIncomplete: config.allowIncomplete,
  });
  const files = options.writeReports ? await options.writeReports(result) : [];
  await options.emit({ type: 'run-end', result, files });
  return result;
}

/** The feed partner's certificate when a planned check runs the feed; its port must be free. */
async function partnerTls(
  config: ConformanceConfig,
  runnable: readonly PlanEntry[],
  notice: ((line: string) => void) | undefined,
): Promise<{ key: string; cert: string } | undefined> {
  const partner = config.feedPartner;
  if (!partner || !runnable.some((e) => e.check.needs.includes('feed'))) return undefined;
  try {
    await assertPortFree(partner.host, partner.port);
  } catch (error) {
    throw new CannotRun(
      `the feed partner endpoint cannot listen on ${partner.host}:${partner.port} (--feed-partner-port): ${(error as Error).message}`,
    );
  }
  try {
    const tls = await loadPartnerTls(partner, config.reportDir);
    const how = {
      given: 'given',
      reused: 'kept from an earlier run',
      generated: 'generated now: a feed that does not trust it yet cannot fetch it in this run',
    }[tls.source];
    notice?.(`Feed partner endpoint for feed ${config.feedId}: ${partner.url}; certificate ${tls.certFile} (${how})`);
    return { key: tls.key, cert: tls.cert };
  } catch (error) {
    if (error instanceof PartnerTlsError) throw new CannotRun(error.message);
    throw error;
  }
}
