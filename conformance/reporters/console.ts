// Console output: progress per requirement group while the run goes, then a summary that puts
// the root failure first (the first failing MUST whose dependencies passed), then the rest.

import type { Writable } from 'node:stream';
import { toCurl } from '../model/exchange.ts';
import type { PlanEntry } from '../engine/plan/select.ts';
import type { CheckResult, RunInfo, RunResult } from '../engine/results/result.ts';
import type { Reporter, RunEvent } from '../engine/events.ts';
import type { Paint } from './ansi.ts';
import { paint } from './ansi.ts';
import { VERDICT_LABEL, verdictScope } from './verdictText.ts';

export interface ConsoleReporterOptions {
  out: Writable;
  color: boolean;
}

function duration(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}

function symbol(result: CheckResult, p: Paint): string {
  switch (result.status) {
    case 'passed':
      return p.green('✓');
    case 'skipped':
      return p.dim('○');
    case 'expected-failure':
      return p.cyan('✗');
    case 'unexpected-pass':
      return p.red('!');
    case 'failed':
      return result.failureLevel === 'MUST'
        ? p.red('✗')
        : result.failureLevel === 'SHOULD'
          ? p.yellow('✗')
          : p.magenta('✗');
  }
}

function statusWord(result: CheckResult, p: Paint): string {
  switch (result.status) {
    case 'passed':
      return '';
    case 'skipped':
      return p.dim(`skipped: ${result.skipReason ?? ''}`);
    case 'expected-failure':
      return p.cyan(`expected failure: ${result.expectedFailureReason ?? ''}`);
    case 'unexpected-pass':
      return p.red(`unexpected pass (listed as expected failure: ${result.expectedFailureReason ?? ''})`);
    case 'failed': {
      const label =
        result.failureLevel === 'MUST'
          ? p.red('FAIL')
          : result.failureLevel === 'SHOULD'
            ? p.yellow('WARN')
            : p.magenta('DECISION');
      return `${label} ${result.failure?.message ?? ''}`;
    }
  }
}

export function describeFailure(result: CheckResult, p: Paint, indent = '    '): string[] {
  const f = result.failure;
  if (!f) return [];
  const lines = [`${indent}${f.message}`];
  if (f.pointer !== undefined && f.pointer !== '') lines.push(`${indent}${p.dim('At:')}       ${f.pointer}`);
  if (f.received !== undefined) lines.push(`${indent}${p.dim('Received:')} ${f.received}`);
  if (f.expected !== undefined) lines.push(`${indent}${p.dim('Expected:')} ${f.expected}`);
  lines.push(`${indent}${p.dim('Requirements:')} ${f.requirements.join(', ')}`);
  const exchange = f.exchanges[0];
  if (exchange) {
    const status = exchange.response ? `${exchange.response.status}` : (exchange.error ?? 'no response');
    lines.push(`${indent}${p.dim('Exchange:')} ${exchange.request.method} ${exchange.request.url} → ${status}`);
    lines.push(`${indent}${p.dim('Reproduce:')} ${toCurl(exchange)}`);
  }
  if (f.stack)
    lines.push(
      ...f.stack
        .split('\n')
        .slice(1, 4)
        .map((l) => `${indent}${p.dim(l.trim())}`),
    );
  return lines;
}

export function summaryLines(result: RunResult, files: readonly { kind: string; path: string }[], p: Paint): string[] {
  const lines: string[] = [''];
  const byId = new Map(result.checks.map((c) => [c.id, c]));
  const root = result.rootFailure ? byId.get(result.rootFailure) : undefined;
  const failing = result.checks.filter((c) => c.status === 'failed' && c.failureLevel === 'MUST' && c.id !== root?.id);
  const warnings = result.checks.filter((c) => c.status === 'failed' && c.failureLevel === 'SHOULD');
  const decisions = result.checks.filter((c) => c.status === 'failed' && c.failureLevel === 'DECISION');
  if (root) {
    lines.push(
      p.bold(p.red(`Root failure: ${root.id} (${root.failureLevel}) ${root.title}`)),
      ...describeFailure(root, p),
    );
  }
  if (failing.length > 0) {
    lines.push('', p.bold(p.red(`Also failing (MUST): ${failing.length}`)));
    for (const c of failing) lines.push(`  ${p.red('✗')} ${c.id}`, ...describeFailure(c, p));
  }
  if (warnings.length > 0) {
    lines.push('', p.bold(p.yellow(`Warnings (SHOULD, do not fail the run): ${warnings.length}`)));
    for (const c of warnings) lines.push(`  ${p.yellow('✗')} ${c.id}`, ...describeFailure(c, p));
  }
  if (decisions.length > 0) {
    lines.push('', p.bold(p.magenta(`Decisions not followed (reported apart, never fail): ${decisions.length}`)));
    for (const c of decisions) lines.push(`  ${p.magenta('✗')} ${c.id}: ${c.failure?.message ?? ''}`);
  }
  const deviations = result.checks.flatMap((c) => (c.deviations ?? []).map((d) => ({ check: c.id, ...d })));
  if (deviations.length > 0) {
    lines.push(
      '',
      p.bold(p.magenta(`Deviations from our decisions (the interface allows them; never fail): ${deviations.length}`)),
    );
    for (const d of deviations) lines.push(`  ${p.magenta('~')} ${d.decisions.join(', ')} (${d.check}): ${d.message}`);
  }
  const unexpected = result.checks.filter((c) => c.status === 'unexpected-pass');
  if (unexpected.length > 0) {
    lines.push(
      '',
      p.bold(p.red(`Unexpected passes (remove them from the expected-failures file): ${unexpected.length}`)),
    );
    for (const c of unexpected)
      lines.push(`  ${p.red('!')} ${c.id}: listed because "${c.expectedFailureReason ?? ''}"`);
  }
  const expected = result.checks.filter((c) => c.status === 'expected-failure');
  if (expected.length > 0) {
    lines.push('', p.cyan(`Expected failures: ${expected.length}`));
    for (const c of expected) lines.push(`  ${p.cyan('✗')} ${c.id}: ${c.expectedFailureReason ?? ''}`);
  }
  const failedCleanup = result.cleanup.filter((c) => !c.ok);
  if (failedCleanup.length > 0) {
    lines.push('', p.yellow(`Cleanup left ${failedCleanup.length} step(s) undone:`));
    for (const c of failedCleanup) lines.push(`  ${c.description}: ${c.error ?? ''}`);
  }
  const s = result.summary;
  lines.push(
    '',
    `Checks:       ${s.checks.passed} passed, ${s.checks.failed} failed, ${s.checks.skipped} skipped, ${s.checks['expected-failure']} expected failures, ${s.checks['unexpected-pass']} unexpected passes`,
    `Requirements: ${s.requirements.pass} pass, ${s.requirements.fail} fail, ${s.requirements.warn} warn, ${s.requirements['not-verified']} not verified, ${s.requirements['not-verifiable'] ?? 0} not verifiable black-box, ${s.requirements['expected-failure']} expected failure, decisions ${s.requirements['decision-pass']} pass / ${s.requirements['decision-fail']} fail, ${s.requirements['client-library']} covered by the client library tests`,
  );
  for (const f of files) lines.push(`Report (${f.kind}): ${f.path}`);
  lines.push(
    `Seed: ${result.seed} (replay with --seed ${result.seed}); run id ${result.runId}; ${duration(result.durationMs)}`,
  );
  const colour = { pass: p.green, fail: p.red, incomplete: p.yellow }[result.verdict];
  const scope = verdictScope(result);
  lines.push(
    p.bold(`Verdict: ${colour(VERDICT_LABEL[result.verdict])} (exit ${result.exitCode})`) +
      (scope ? ` ${p.dim(`— ${scope}`)}` : ''),
  );
  return lines;
}

/** The target's variants (where the interface is silent) and where each came from. */
export function variantLines(info: RunInfo, p: Paint): string[] {
  const variants = info.targetVariants ?? [];
  if (variants.length === 0) return [];
  return [
    p.bold('Target variants (where the interface is silent):'),
    ...variants.map((v) => `  ${v.name}: ${v.value} ${p.dim(`(${v.source}${v.note ? `: ${v.note}` : ''})`)}`),
  ];
}

export function planLines(plan: readonly PlanEntry[], p: Paint): string[] {
  const lines: string[] = [];
  let group = '';
  for (const entry of plan) {
    const c = entry.check;
    if (c.group !== group) {
      group = c.group;
      lines.push('', p.bold(group));
    }
    const state = entry.run ? p.green('run ') : p.dim('skip');
    lines.push(`  ${state} ${c.id} ${p.dim(`[${c.level}] ${c.requirements.join(', ')}`)}  ${c.title}`);
    if (c.writes) lines.push(`         ${p.dim('writes:')} ${c.writes}`);
    if (!entry.run) lines.push(`         ${p.dim('skipped:')} ${entry.skipReason ?? ''}`);
  }
  const running = plan.filter((e) => e.run).length;
  lines.push('', `${running} of ${plan.length} checks would run.`);
  return lines;
}

export function createConsoleReporter(options: ConsoleReporterOptions): Reporter {
  const p = paint(options.color);
  const write = (lines: string[]) => options.out.write(`${lines.join('\n')}\n`);
  let group = '';
  return {
    onEvent(event: RunEvent) {
      switch (event.type) {
        case 'run-start': {
          const { info, plan } = event;
          const running = plan.filter((e) => e.run).length;
          write([
            p.bold(`Content Service conformance ${info.suite.version}`),
            `Target ${info.target} · profile ${info.profile} · seed ${info.seed} · run id ${info.runId}`,
            `Spec sha256 ${info.spec.sha256}`,
            ...variantLines(info, p),
            `${running} of ${plan.length} checks to run`,
          ]);
          break;
        }
        case 'check-end': {
          const r = event.result;
          if (r.group !== group) {
            group = r.group;
            write(['', p.bold(group)]);
          }
          const time = r.status === 'skipped' ? '' : p.dim(` (${duration(r.durationMs)})`);
          write([`  ${symbol(r, p)} ${r.id}${time} ${statusWord(r, p)}`.trimEnd()]);
          break;
        }
        case 'run-end':
          write(summaryLines(event.result, event.files, p));
          break;
        default:
          break;
      }
    },
  };
}
