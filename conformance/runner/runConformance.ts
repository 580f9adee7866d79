// One conformance run, in the CLI process: load requirements, checks and spec; plan; probe the
// target; run the planned checks in a vitest instance of their own; turn the outcomes into a
// result; let the reporters write it. Returns the exit code (0 pass, 1 a check failed, 2 the
// suite could not run).

import { mkdir, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { ConformanceConfig } from '../config/config.ts';
import { PACKAGE_ROOT } from '../config/config.ts';
import { CHECKS_DIR, CheckLoadError, loadChecks } from '../engine/plan/loadChecks.ts';
import type { PlanEntry } from '../engine/plan/select.ts';
import { planChecks, unmatchedPatterns } from '../engine/plan/select.ts';
import { paint } from '../reporters/ansi.ts';
import { createConsoleReporter, planLines } from '../reporters/console.ts';
import { htmlReporter } from '../reporters/html.ts';
import { jsonReporter } from '../reporters/json.ts';
import { junitReporter } from '../reporters/junit.ts';
import { assertPortFree } from '../partner/feedPartner.ts';
import { loadPartnerTls, PartnerTlsError } from '../partner/partnerTls.ts';
import { selfSignedTls } from '../receiver/selfSignedTls.ts';
import type { CheckOutcome, CleanupOutcome } from '../model/outcome.ts';
import type { RunInfo } from '../engine/results/result.ts';
import { buildResult, resolveCheckResult } from '../engine/results/result.ts';
import { loadSpec, SpecError, type LoadedSpec } from '../../spec/index.ts';
import { loadRequirements, RequirementsError } from '../spec/requirements.ts';
import type { RequirementCatalogue } from '../spec/requirements.ts';
import { createResponseValidator } from '../spec/responseValidator.ts';
import { suiteVersion } from '../version.ts';
import { BridgeReporter } from './bridgeReporter.ts';
import type { FileReporter, ReportFile, Reporter, RunEvent } from '../engine/events.ts';
import type { WorkerPayload } from './payload.ts';
import { PAYLOAD_KEY } from './payload.ts';
import { probeTarget } from '../engine/probeTarget.ts';
import { discoverVariants } from '../engine/discovery/discover.ts';
import { describeVariants } from '../model/variants.ts';

export interface RunIo {
  stdout: Writable;
  stderr: Writable;
}

export const EXIT = { pass: 0, fail: 1, cannotRun: 2 } as const;

const FILE_REPORTERS: Record<ReportFile['kind'], FileReporter> = {
  junit: junitReporter,
  json: jsonReporter,
  html: htmlReporter,
};

class CannotRun extends Error {}

async function prepare(config: ConformanceConfig): Promise<{ catalogue: RequirementCatalogue; plan: PlanEntry[] }> {
  let catalogue: RequirementCatalogue;
  try {
    catalogue = await loadRequirements(config.requirementsFile);
  } catch (error) {
    if (error instanceof RequirementsError) throw new CannotRun(`requirements error: ${error.message}`);
    throw error;
  }
  let checks;
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
  return { catalogue, plan };
}

async function loadValidSpec(file: string): Promise<LoadedSpec> {
  try {
    const spec = loadSpec(file);
    createResponseValidator(spec.document); // compiles the document once: a broken spec stops here
    return spec;
  } catch (error) {
    if (error instanceof SpecError) throw new CannotRun(`spec error: ${error.message}`);
    throw new CannotRun(`spec error: ${(error as Error).message}`);
  }
}

const sink = () => new Writable({ write: (_c, _e, cb) => cb() });

export async function runConformance(config: ConformanceConfig, io: RunIo): Promise<number> {
  const p = paint(config.color);
  const fail = (message: string) => {
    io.stderr.write(`${p.red('content-conformance: could not run:')} ${message}\n`);
    return EXIT.cannotRun;
  };
  try {
    const version = await suiteVersion();
    const { catalogue, plan } = await prepare(config);

    if (config.dryRun) {
      io.stdout.write(
        `${[
          p.bold(
            `Dry run: content-conformance ${version}, profile ${config.profile}, target ${config.baseUrl ?? '(none given)'}`,
          ),
          `Tokens: consumer ${config.tokens.consumer ? '✓' : '✗'} · full ${config.tokens.full ? '✓' : '✗'} · admin ${config.tokens.admin ? '✓' : '✗'}${config.accountId ? ` (account ${config.accountId})` : ''}`,
          ...planLines(plan, p),
        ].join('\n')}\n`,
      );
      try {
        loadSpec(config.specFile);
      } catch (e) {
        io.stdout.write(`${p.yellow('Note:')} ${(e as Error).message}\n`);
      }
      if (config.feedPartner) {
        // The feed must trust the partner's certificate before the first real run: write it now.
        try {
          const tls = await loadPartnerTls(config.feedPartner, config.reportDir);
          io.stdout.write(
            `Feed partner endpoint: ${config.feedPartner.url}; certificate ${tls.certFile} (${tls.source}): let the feed fetch this URL and trust this certificate\n`,
          );
        } catch (error) {
          if (error instanceof PartnerTlsError) return fail(error.message);
          throw error;
        }
      }
      return EXIT.pass;
    }

    const spec = await loadValidSpec(config.specFile);
    const probe = await probeTarget(config.baseUrl!, config.tokens.consumer, config.timeoutMs);
    if (!probe.ok) return fail(probe.message);
    const variants = await discoverVariants(config);
    const runConfig: ConformanceConfig = { ...config, variants };

    await mkdir(config.reportDir, { recursive: true });
    const runnable = plan.filter((e) => e.run);
    const needsReceiver = runnable.some((e) => e.check.needs.includes('webhook'));
    let receiverTls: WorkerPayload['receiverTls'];
    if (needsReceiver && config.receiver.tls) {
      receiverTls = await selfSignedTls(config.receiver.host);
      await writeFile(join(config.reportDir, 'receiver-cert.pem'), receiverTls.cert);
    }
    let feedPartnerTls: WorkerPayload['feedPartnerTls'];
    const partner = config.feedPartner;
    if (partner && runnable.some((e) => e.check.needs.includes('feed'))) {
      try {
        await assertPortFree(partner.host, partner.port);
      } catch (error) {
        return fail(
          `the feed partner endpoint cannot listen on ${partner.host}:${partner.port} (--feed-partner-port): ${(error as Error).message}`,
        );
      }
      try {
        const tls = await loadPartnerTls(partner, config.reportDir);
        feedPartnerTls = { key: tls.key, cert: tls.cert };
        const how = {
          given: 'given',
          reused: 'kept from an earlier run',
          generated: 'generated now: a feed that does not trust it yet cannot fetch it in this run',
        }[tls.source];
        io.stdout.write(
          `Feed partner endpoint for feed ${config.feedId}: ${partner.url}; certificate ${tls.certFile} (${how})\n`,
        );
      } catch (error) {
        if (error instanceof PartnerTlsError) return fail(error.message);
        throw error;
      }
    }

    const info: RunInfo = {
      suite: { name: 'content-conformance', version },
      target: config.baseUrl!,
      profile: config.profile,
      seed: config.seed,
      runId: config.runId,
      spec: { file: basename(spec.file), sha256: spec.sha256 },
      startedAt: new Date().toISOString(),
      targetVariants: describeVariants(variants),
    };
    const reporters: Reporter[] = config.reporters.includes('console')
      ? [createConsoleReporter({ out: io.stdout, color: config.color, verbose: config.verbose })]
      : [];
    const emit = async (event: RunEvent) => {
      for (const r of reporters) await r.onEvent(event);
    };
    const resolveInput = { info, catalogue, expectedFailures: config.expectedFailures };
    const outcomes = new Map<string, CheckOutcome>();
    let cleanup: CleanupOutcome = { results: [], exchanges: [] };
    // Planned skips are reported when the run reaches their place, so progress reads in order.
    let emitted = 0;
    const emitSkipsUntil = async (index: number) => {
      for (; emitted < index; emitted++) {
        const entry = plan[emitted]!;
        if (!entry.run) await emit({ type: 'check-end', result: resolveCheckResult(entry, undefined, resolveInput) });
      }
    };

    await emit({ type: 'run-start', info, plan });
    // Events are emitted strictly one after another, in the order vitest reports.
    let queue = Promise.resolve();
    const serial = (step: () => Promise<void>) => {
      queue = queue.then(step);
    };
    let bridgeErrors: string[] = [];
    if (runnable.length > 0) {
      const bridge = new BridgeReporter({
        onStart: (id) => {
          const index = plan.findIndex((e) => e.check.id === id);
          serial(async () => {
            await emitSkipsUntil(index);
            await emit({ type: 'check-start', check: plan[index]!.check });
          });
        },
        onOutcome: (outcome) => {
          outcomes.set(outcome.checkId, outcome);
          const index = plan.findIndex((e) => e.check.id === outcome.checkId);
          serial(async () => {
            await emitSkipsUntil(index);
            await emit({ type: 'check-end', result: resolveCheckResult(plan[index]!, outcome, resolveInput) });
            emitted = Math.max(emitted, index + 1);
          });
        },
        onCleanup: (outcome) => {
          cleanup = outcome;
          serial(async () => emit({ type: 'cleanup-end', outcome }));
        },
      });
      const payload: WorkerPayload = {
        config: runConfig,
        plan: runnable.map((e) => e.check),
        checksDir: fileURLToPath(CHECKS_DIR),
        needsReceiver,
        receiverTls,
        feedPartnerTls,
      };
      const { createVitest } = await import('vitest/node');
      const vitest = await createVitest(
        'test',
        {
          // .ts in the repository, .js in the compiled package: the extension of this module. Vite
          // cannot bundle a config under node_modules, so the package's is imported as it is.
          config: join(PACKAGE_ROOT, `conformance/vitest.conformance.config${extname(import.meta.url)}`),
          ...(extname(import.meta.url) === '.js' ? { configLoader: 'native' as const } : {}),
          root: PACKAGE_ROOT,
          watch: false,
          reporters: [bridge as never],
          provide: { [PAYLOAD_KEY]: payload } as never,
          testTimeout: config.checkTimeoutMs + 15_000,
        },
        {},
        { stdout: sink() as never, stderr: io.stderr as never },
      );
      try {
        await vitest.start();
      } finally {
        await vitest.close();
      }
      await queue;
      bridgeErrors = bridge.errors;
    }
    await emitSkipsUntil(plan.length);

    const missing = runnable.filter((e) => !outcomes.has(e.check.id));
    if (missing.length > 0) {
      return fail(
        `${missing.length} planned check(s) reported no result (${missing
          .map((e) => e.check.id)
          .slice(0, 5)
          .join(', ')}): ${bridgeErrors.join('; ') || 'the test worker stopped'}`,
      );
    }

    const result = buildResult({
      info,
      finishedAt: new Date(),
      plan,
      outcomes,
      catalogue,
      expectedFailures: config.expectedFailures,
      cleanup: cleanup.results,
    });
    const files: ReportFile[] = [];
    for (const kind of ['junit', 'json', 'html'] as const) {
      if (!config.reporters.includes(kind)) continue;
      const reporter = FILE_REPORTERS[kind];
      const path = join(config.reportDir, reporter.fileName);
      await writeFile(path, reporter.render(result));
      files.push({ kind, path });
    }
    await emit({ type: 'run-end', result, files });
    return result.exitCode;
  } catch (error) {
    if (error instanceof CannotRun) return fail(error.message);
    return fail(`internal error: ${(error as Error).stack ?? String(error)}`);
  }
}
