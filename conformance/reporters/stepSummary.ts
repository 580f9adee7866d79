// The GitHub Actions step summary: when GITHUB_STEP_SUMMARY names a file, the run appends a short
// Markdown verdict to it (the job's summary page), so a failed gate says why without opening logs.

import { appendFile } from 'node:fs/promises';
import type { ReportFile, Reporter } from '../engine/events.ts';
import type { CheckResult, RunResult } from '../engine/results/result.ts';
import { VERDICT_LABEL, verdictScope } from './verdictText.ts';

export interface StepSummaryOptions {
  /** The file GitHub gave in GITHUB_STEP_SUMMARY. */
  file: string;
  /** This workflow run's page, where the uploaded report is listed among the artifacts. */
  runUrl?: string;
}

/** GitHub caps a summary at 1 MiB; a long list of failures is cut well before that. */
const MAX_FAILURE_ROWS = 50;

const ICON: Record<RunResult['verdict'], string> = { pass: '✅', fail: '❌', incomplete: '⚠️' };

/** A table cell: one line, pipes escaped, long messages cut. */
function cell(text: string): string {
  const line = text.split('\n')[0]!.replace(/\|/g, '\\|').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function failureRow(check: CheckResult): string {
  const requirements = check.failure?.requirements.length ? check.failure.requirements : check.requirements;
  const level = check.status === 'unexpected-pass' ? 'unexpected pass' : (check.failureLevel ?? check.level);
  const message =
    check.status === 'unexpected-pass'
      ? `passes, but is listed as an expected failure: ${check.expectedFailureReason ?? ''}`
      : (check.failure?.message ?? '');
  return `| \`${check.id}\` | ${level} | ${requirements.join(', ')} | ${cell(message)} |`;
}

export function renderStepSummary(result: RunResult, files: readonly ReportFile[], runUrl: string | undefined): string {
  const scope = verdictScope(result);
  const c = result.summary.checks;
  const r = result.summary.requirements;
  const lines = [
    `## ${ICON[result.verdict]} Content Service conformance: ${VERDICT_LABEL[result.verdict]} (exit ${result.exitCode})`,
    '',
    ...(scope ? [`> ${scope}`, ''] : []),
    `Target \`${result.target}\` · profile \`${result.profile}\` · ${result.suite.name} ${result.suite.version}${result.seed === undefined ? '' : ` · seed ${result.seed} (replay with \`--seed ${result.seed}\`)`} · run id \`${result.runId}\``,
    '',
    '| | pass | fail | other |',
    '|---|---|---|---|',
    `| Checks | ${c.passed} | ${c.failed} | ${c.skipped} skipped, ${c['expected-failure']} expected failures, ${c['unexpected-pass']} unexpected passes |`,
    `| MUST/SHOULD requirements | ${r.pass} | ${r.fail} | ${r.warn} warn, ${r['not-verified']} not verified, ${r['not-verifiable']} not verifiable black-box, ${r['expected-failure']} expected failures |`,
    `| Decisions (never fail a vendor) | ${r['decision-pass']} | ${r['decision-fail']} | |`,
  ];
  const failing = result.checks.filter((ch) => ch.status === 'failed' || ch.status === 'unexpected-pass');
  // The root failure first: the one the others most likely follow from.
  failing.sort((a, b) => Number(b.id === result.rootFailure) - Number(a.id === result.rootFailure));
  if (failing.length > 0) {
    lines.push(
      '',
      `### Failures (${failing.length})`,
      '',
      '| Check | Level | Requirements | Message |',
      '|---|---|---|---|',
    );
    lines.push(...failing.slice(0, MAX_FAILURE_ROWS).map(failureRow));
    if (failing.length > MAX_FAILURE_ROWS)
      lines.push('', `… and ${failing.length - MAX_FAILURE_ROWS} more: see the HTML report.`);
  }
  const html = files.find((f) => f.kind === 'html');
  if (html) {
    const where = runUrl ? ` (upload the report directory as an artifact: [this run](${runUrl}) lists it)` : '';
    lines.push('', `Report: \`${html.path}\`${where}`);
  }
  return `${lines.join('\n')}\n\n`;
}

export function createStepSummaryReporter(options: StepSummaryOptions): Reporter {
  return {
    async onEvent(event) {
      if (event.type !== 'run-end') return;
      await appendFile(options.file, renderStepSummary(event.result, event.files, options.runUrl));
    },
  };
}
