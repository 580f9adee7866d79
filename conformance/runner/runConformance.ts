// The CLI's run: a dry run prints the plan; a real run hands the configuration to the suite's own
// engine (engine/execute/runSuite.ts) with the reporters the options ask for, and writes the report
// files. Returns the exit code: 0 pass, 1 a check failed, 2 the suite could not run, 3 INCOMPLETE
// under full or certification.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { ConformanceConfig } from '../config/config.ts';
import type { FileReporter, ReportFile, Reporter } from '../engine/events.ts';
import { serialEmitter } from '../engine/execute/executePlan.ts';
import { CannotRun, credentialProblem, prepareRun, runSuite } from '../engine/execute/runSuite.ts';
import type { RunResult } from '../engine/results/result.ts';
import { EXIT_CODE } from '../engine/results/result.ts';
import { loadPartnerTls, PartnerTlsError } from '../partner/partnerTls.ts';
import { paint } from '../reporters/ansi.ts';
import { createConsoleReporter, planLines } from '../reporters/console.ts';
import { htmlReporter } from '../reporters/html.ts';
import { jsonReporter } from '../reporters/json.ts';
import { junitReporter } from '../reporters/junit.ts';
import { createStepSummaryReporter } from '../reporters/stepSummary.ts';
import { loadSpec } from '../../spec/index.ts';
import { suiteVersion } from '../version.ts';

export interface RunIo {
  stdout: Writable;
  stderr: Writable;
}

export const EXIT = EXIT_CODE;

const FILE_REPORTERS: Record<ReportFile['kind'], FileReporter> = {
  junit: junitReporter,
  json: jsonReporter,
  html: htmlReporter,
};

/** The report files the options name, written to the report directory. */
async function writeReports(config: ConformanceConfig, result: RunResult): Promise<ReportFile[]> {
  await mkdir(config.reportDir, { recursive: true });
  const files: ReportFile[] = [];
  for (const kind of ['junit', 'json', 'html'] as const) {
    if (!config.reporters.includes(kind)) continue;
    const reporter = FILE_REPORTERS[kind];
    const path = join(config.reportDir, reporter.fileName);
    await writeFile(path, reporter.render(result));
    files.push({ kind, path });
  }
  return files;
}

/** --dry-run: what would run, what it writes and why the rest is skipped; contacts nothing. */
async function dryRun(config: ConformanceConfig, io: RunIo, version: string): Promise<number> {
  const p = paint(config.color);
  const { plan } = await prepareRun(config);
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
      if (error instanceof PartnerTlsError) throw new CannotRun(error.message);
      throw error;
    }
  }
  const problem = credentialProblem(plan, config);
  if (problem) throw new CannotRun(problem);
  return EXIT.pass;
}

export async function runConformance(config: ConformanceConfig, io: RunIo): Promise<number> {
  const p = paint(config.color);
  const fail = (message: string) => {
    io.stderr.write(`${p.red('content-conformance: could not run:')} ${message}\n`);
    return EXIT.cannotRun;
  };
  try {
    const version = await suiteVersion();
    if (config.dryRun) return await dryRun(config, io, version);
    const reporters: Reporter[] = config.reporters.includes('console')
      ? [createConsoleReporter({ out: io.stdout, color: config.color, verbose: config.verbose })]
      : [];
    if (config.stepSummary) reporters.push(createStepSummaryReporter(config.stepSummary));
    const result = await runSuite(config, {
      version,
      emit: serialEmitter(reporters),
      writeReports: (r) => writeReports(config, r),
      notice: (line) => io.stdout.write(`${line}\n`),
    });
    return result.exitCode;
  } catch (error) {
    if (error instanceof CannotRun) return fail(error.message);
    return fail(`internal error: ${(error as Error).stack ?? String(error)}`);
  }
}
