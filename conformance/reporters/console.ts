// Console output: a `[n/N]` line per check that runs (on a terminal, also a live line naming the
// running check), skipped checks as one line per reason at the end (--verbose lists them), then a
// summary that puts the root failure first (the first failing MUST whose dependencies passed).
// Checks left out by --only are not mentioned: the console shows only what runs.

import type { Writable } from 'node:stream';
import { toCurl } from '../model/exchange.ts';
import { NOT_SELECTED } from '../engine/plan/select.ts';
import type { CheckInfo, PlanEntry } from '../engine/plan/select.ts';
import { firstRefusal } from '../model/targetMessage.ts';
import type { WaiverResult } from '../engine/results/waivers.ts';
import type { CheckResult, RunInfo, RunResult } from '../engine/results/result.ts';
import type { Reporter, RunEvent } from '../engine/events.ts';
import type { Paint } from './ansi.ts';
import { paint } from './ansi.ts';
import { VERDICT_LABEL, verdictScope } from './verdictText.ts';

export interface ConsoleReporterOptions {
  out: Writable;
  color: boolean;
  /** List every skipped check under its reason (default: the count per reason). */
  verbose?: boolean;
  /** Redraw a live line naming the running check (default: when `out` is a terminal). */
  live?: boolean;
}

const isNotSelected = (c: { skipReason?: string }) => c.skipReason?.startsWith(NOT_SELECTED) === true;

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
  const refusal = firstRefusal(f.exchanges);
  if (refusal && !f.message.includes(refusal.message))
    lines.push(
      `${indent}${p.dim('Target said:')} ${refusal.message} ${p.dim(`(${refusal.exchange.request.method} ${refusal.exchange.request.url} → ${refusal.exchange.response!.status})`)}`,
    );
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

/** One line per reason with its count (verbose: the checks under it). */
function reasonLines(
  checks: readonly CheckResult[],
  reasonOf: (c: CheckResult) => string,
  verbose: boolean,
  p: Paint,
): string[] {
  const byReason = new Map<string, CheckResult[]>();
  for (const c of checks) byReason.set(reasonOf(c), [...(byReason.get(reasonOf(c)) ?? []), c]);
  const lines: string[] = [];
  for (const [reason, list] of [...byReason.entries()].sort((a, b) => b[1].length - a[1].length)) {
    lines.push(`  ${String(list.length).padStart(3)} × ${reason}`);
    if (verbose) for (const c of list) lines.push(`        ${p.dim('○')} ${c.id} ${p.dim(c.title)}`);
  }
  return lines;
}

/** Skipped checks, one line per reason; those left out by --only are not mentioned. */
export function skipSummaryLines(checks: readonly CheckResult[], verbose: boolean, p: Paint): string[] {
  const skipped = checks.filter((c) => c.status === 'skipped' && !isNotSelected(c));
  if (skipped.length === 0) return [];
  return [
    '',
    p.bold(
      `Skipped: ${skipped.length} check${skipped.length === 1 ? '' : 's'}${verbose ? '' : ' (--verbose lists them)'}`,
    ),
    ...reasonLines(skipped, (c) => c.skipReason ?? 'no reason given', verbose, p),
  ];
}

const notVerified = (result: RunResult, level: string) =>
  result.requirements.filter((r) => r.verdict === 'not-verified' && r.level === level && r.subject === 'service');

/** ` (MUST 2, DECISION 20)`: the levels of the requirements not verified. */
function notVerifiedLevels(result: RunResult): string {
  const parts = ['MUST', 'SHOULD', 'DECISION']
    .map((level) => [level, notVerified(result, level).length] as const)
    .filter(([, n]) => n > 0)
    .map(([level, n]) => `${level} ${n}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** Ids listed per level before the line is cut (--verbose lists all; so does the HTML report). */
const MAX_IDS = 20;

/** Which requirement ids were not verified, per level: MUST ones leave the run incomplete. */
function notVerifiedLines(result: RunResult, p: Paint, verbose: boolean): string[] {
  const effect: Record<string, string> = {
    MUST: 'leave the run incomplete',
    SHOULD: 'warnings at most',
    DECISION: 'our decisions; never fail',
  };
  return ['MUST', 'SHOULD', 'DECISION'].flatMap((level) => {
    const ids = notVerified(result, level).map((r) => r.id);
    if (ids.length === 0) return [];
    const label = `  Not verified ${level} (${effect[level]}):`;
    const shown =
      verbose || ids.length <= MAX_IDS
        ? ids.join(', ')
        : `${ids.slice(0, MAX_IDS).join(', ')} and ${ids.length - MAX_IDS} more (--verbose lists them)`;
    return [`${level === 'MUST' ? p.yellow(label) : p.dim(label)} ${shown}`];
  });
}

/** The waivers, apart from the checks: those that fail the run first, each with its message. */
export function waiverLines(waivers: readonly WaiverResult[], p: Paint): string[] {
  if (waivers.length === 0) return [];
  const failing = waivers.filter((w) => w.state === 'stale' || w.state === 'expired');
  const count = (state: string) => waivers.filter((w) => w.state === state).length;
  const lines = [
    '',
    p.bold(
      `Waivers: ${waivers.length} (${count('applied')} applied, ${count('stale')} stale, ${count('expired')} expired, ${count('unused')} unused)`,
    ),
  ];
  for (const w of failing) lines.push(`  ${p.red('!')} ${p.red(w.state)}: ${w.message}`);
  for (const w of waivers.filter((x) => !failing.includes(x)))
    lines.push(
      `  ${p.cyan('·')} ${w.state}: ${w.check !== undefined ? `check ${w.check}` : `requirement ${w.requirement}`} ${p.dim(`(owner ${w.owner}, expires ${w.expires})`)}: ${w.message}`,
    );
  return lines;
}

export function summaryLines(
  result: RunResult,
  files: readonly { kind: string; path: string }[],
  p: Paint,
  verbose = false,
): string[] {
  const lines: string[] = [...skipSummaryLines(result.checks, verbose, p)];
  lines.push('');
  const byId = new Map(result.checks.map((c) => [c.id, c]));
  const root = result.rootFailure ? byId.get(result.rootFailure) : undefined;
  const mustFailures = result.checks.filter((c) => c.status === 'failed' && c.failureLevel === 'MUST');
  // Certification turns skips into failures: those read as one line per reason, like skips.
  const couldNotVerify = mustFailures.filter((c) => c.failure?.kind === 'not-verified' && c.id !== root?.id);
  const failing = mustFailures.filter((c) => c.failure?.kind !== 'not-verified' && c.id !== root?.id);
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
  if (couldNotVerify.length > 0) {
    lines.push(
      '',
      p.bold(
        p.red(`Not verified (the certification profile allows no skips of MUST checks): ${couldNotVerify.length}`),
      ),
      ...reasonLines(couldNotVerify, (c) => c.skipReason ?? c.failure?.message ?? '', verbose, p),
    );
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
  const expected = result.checks.filter((c) => c.status === 'expected-failure');
  if (expected.length > 0) {
    lines.push('', p.cyan(`Expected failures (waived): ${expected.length}`));
    for (const c of expected) lines.push(`  ${p.cyan('✗')} ${c.id}: ${c.expectedFailureReason ?? ''}`);
  }
  lines.push(...waiverLines(result.waivers ?? [], p));
  const failedCleanup = result.cleanup.filter((c) => !c.ok);
  if (failedCleanup.length > 0) {
    lines.push('', p.yellow(`Cleanup left ${failedCleanup.length} step(s) undone:`));
    for (const c of failedCleanup) lines.push(`  ${c.description}: ${c.error ?? ''}`);
  }
  const s = result.summary;
  lines.push(
    '',
    `Checks:       ${s.checks.passed} passed, ${s.checks.failed} failed, ${s.checks.skipped} skipped, ${s.checks['expected-failure']} expected failures, ${s.checks['unexpected-pass']} unexpected passes`,
    `Requirements: ${s.requirements.pass} pass, ${s.requirements.fail} fail, ${s.requirements.warn} warn, ${s.requirements['not-verified']} not verified${notVerifiedLevels(result)}, ${s.requirements['not-verifiable'] ?? 0} not verifiable black-box, ${s.requirements['expected-failure']} expected failure, decisions ${s.requirements['decision-pass']} pass / ${s.requirements['decision-fail']} fail, ${s.requirements['client-library']} covered by the client library tests`,
    ...notVerifiedLines(result, p, verbose),
  );
  for (const f of files) lines.push(`Report (${f.kind}): ${f.path}`);
  lines.push(
    `${result.seed === undefined ? '' : `Seed: ${result.seed} (replay with --seed ${result.seed}); `}run id ${result.runId}; ${duration(result.durationMs)}`,
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
    if (!entry.run && isNotSelected(entry)) continue;
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
  const selected = plan.filter((e) => e.run || !isNotSelected(e)).length;
  lines.push(
    '',
    `${running} of ${selected} checks would run${selected < plan.length ? ` (selected by --only of ${plan.length})` : ''}.`,
  );
  return lines;
}

export function createConsoleReporter(options: ConsoleReporterOptions): Reporter {
  const p = paint(options.color);
  const live = options.live ?? Boolean((options.out as { isTTY?: boolean }).isTTY);
  const write = (lines: string[]) => options.out.write(`${lines.join('\n')}\n`);
  let group = '';
  let total = 0;
  let started = 0;
  // Checks started and not yet ended (several when the engine runs checks concurrently).
  const running = new Map<string, { check: CheckInfo; index: number; since: number }>();
  const newest = () => [...running.values()].at(-1);
  let ticker: ReturnType<typeof setInterval> | undefined;
  const counter = (index: number) => p.dim(`[${String(index).padStart(String(total).length)}/${total}]`);
  const clearLive = () => {
    if (live) options.out.write('\r\u001b[2K');
  };
  const drawLive = () => {
    const current = newest();
    if (!live || !current) return;
    const seconds = Math.floor((Date.now() - current.since) / 1000);
    clearLive();
    options.out.write(
      `${counter(current.index)} ${current.check.id} ${p.dim(`${current.check.title}${seconds > 0 ? ` · ${seconds} s` : ''}`)}`,
    );
  };
  const stopLive = () => {
    if (ticker) clearInterval(ticker);
    ticker = undefined;
    clearLive();
  };
  return {
    onEvent(event: RunEvent) {
      switch (event.type) {
        case 'run-start': {
          const { info, plan } = event;
          total = plan.filter((e) => e.run).length;
          const skipped = plan.filter((e) => !e.run && !isNotSelected(e)).length;
          const selected = plan.length - plan.filter((e) => !e.run && isNotSelected(e)).length;
          write([
            p.bold(`Content Service conformance ${info.suite.version}`),
            `Target ${info.target} · profile ${info.profile}${info.seed === undefined ? '' : ` · seed ${info.seed}`} · run id ${info.runId}`,
            `Spec sha256 ${info.spec.sha256}`,
            ...variantLines(info, p),
            `${total} of ${selected} checks to run${selected < plan.length ? ` (selected by --only of ${plan.length})` : ''}${skipped > 0 ? `; ${skipped} skipped (summary at the end)` : ''}`,
          ]);
          break;
        }
        case 'check-start': {
          started++;
          running.set(event.check.id, { check: event.check, index: started, since: Date.now() });
          if (live) {
            drawLive();
            ticker ??= setInterval(drawLive, 1000);
            ticker.unref?.();
          }
          break;
        }
        case 'check-end': {
          const r = event.result;
          const current = running.get(r.id);
          // A planned skip (never started): summarised at the end, one line per reason.
          if (!current) break;
          running.delete(r.id);
          clearLive();
          if (r.group !== group) {
            group = r.group;
            write(['', p.bold(group)]);
          }
          const time = p.dim(` (${duration(r.durationMs)})`);
          write([`${counter(current.index)} ${symbol(r, p)} ${r.id}${time} ${statusWord(r, p)}`.trimEnd()]);
          drawLive();
          break;
        }
        case 'run-end':
          stopLive();
          write(summaryLines(event.result, event.files, p, options.verbose ?? false));
          break;
        default:
          break;
      }
    },
  };
}
