// The certification report: one self-contained HTML page (inline CSS, no scripts, no external
// assets) that states target, date, suite version, the bundled spec's SHA-256, profile and the
// overall verdict, and per requirement the checks, verdict and evidence. The result itself is
// embedded as JSON with its integrity hash; rendering is deterministic, so verify-report can
// re-render the page from it and detect edits to what a reader sees.

import { parseJson } from '../../spec/json.ts';
import { toCurl } from '../model/exchange.ts';
import { firstRefusal } from '../model/targetMessage.ts';
import type { Exchange } from '../model/exchange.ts';
import { GROUP_ORDER } from '../engine/plan/order.ts';
import { withIntegrity } from './integrity.ts';
import type { DeviationRecord } from '../model/outcome.ts';
import type { CheckResult, RequirementResult, RequirementVerdict, RunResult } from '../engine/results/result.ts';
import { familyOf } from '../spec/requirements.ts';
import type { FileReporter } from '../engine/events.ts';
import { escapeXml as h } from './xml.ts';
import { VERDICT_LABEL as RUN_VERDICT_LABEL, verdictScope } from './verdictText.ts';

export const RESULT_SCRIPT_ID = 'conformance-result';

const VERDICT_LABEL: Record<RequirementVerdict, string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  'not-verified': 'not verified',
  'not-verifiable': 'not verifiable black-box',
  'expected-failure': 'expected failure',
  'decision-pass': 'decision: pass',
  'decision-fail': 'decision: fail',
  'client-library': 'covered by the client library tests',
};

const CHECK_LABEL: Record<CheckResult['status'], string> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  'expected-failure': 'expected failure',
  'unexpected-pass': 'unexpected pass',
};

const CSS = `
:root{--fg:#1d232a;--muted:#5b6670;--line:#d9dee3;--bg:#fff;--pass:#17803d;--fail:#c62828;--warn:#b36b00;--nv:#6b7280;--dec:#7b3fa0;--exp:#0e7490;--lib:#3f6ea8}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1180px;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}
.verdict{display:inline-block;font-weight:700;font-size:18px;padding:6px 14px;border-radius:6px;color:#fff;margin:8px 0}
.verdict.pass{background:var(--pass)}.verdict.fail{background:var(--fail)}.verdict.incomplete{background:var(--warn)}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}th{font-weight:600;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.03em}
table.facts th,table.variants th{width:180px;text-transform:none;font-size:13px;letter-spacing:0}code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;border:1px solid var(--line);border-radius:4px;padding:8px;overflow-x:auto;white-space:pre-wrap;word-break:break-word;margin:4px 0}
.chip{display:inline-block;border-radius:10px;padding:1px 8px;font-size:12px;font-weight:600;color:#fff;white-space:nowrap}
.v-pass,.s-passed{background:var(--pass)}.v-fail,.s-failed,.s-unexpected-pass{background:var(--fail)}.v-warn{background:var(--warn)}.v-not-verified,.s-skipped{background:var(--nv)}.v-not-verifiable{background:var(--nv);opacity:.7}
.v-expected-failure,.s-expected-failure{background:var(--exp)}.v-decision-pass{background:var(--dec);opacity:.75}.v-decision-fail{background:var(--dec)}.v-client-library{background:var(--lib)}
.cards{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}.card{border:1px solid var(--line);border-radius:6px;padding:6px 12px;min-width:120px}.card b{display:block;font-size:20px}
.muted{color:var(--muted)}details{margin:4px 0}summary{cursor:pointer;color:var(--muted)}.failure{border-left:3px solid var(--fail);padding:4px 10px;margin:6px 0;background:#fff8f8}
.failure.lvl-SHOULD{border-color:var(--warn);background:#fffaf2}.failure.lvl-DECISION{border-color:var(--dec);background:#fbf7fd}.failure.expected{border-color:var(--exp);background:#f3fafc}
.kv{margin:2px 0}.kv b{display:inline-block;min-width:90px;color:var(--muted);font-weight:600}footer{margin-top:32px;color:var(--muted);font-size:12px}
`;

function chip(kind: string, text: string): string {
  return `<span class="chip ${kind}">${h(text)}</span>`;
}

function exchangeBlock(e: Exchange): string {
  const req = [
    `${e.request.method} ${e.request.url}`,
    ...Object.entries(e.request.headers).map(([k, v]) => `${k}: ${v}`),
  ];
  if (e.request.body) req.push('', e.request.body);
  const res = e.response
    ? [
        `HTTP ${e.response.status}`,
        ...Object.entries(e.response.headers).map(([k, v]) => `${k}: ${v}`),
        ...(e.response.body ? ['', e.response.body] : []),
      ]
    : [`(no response: ${e.error ?? 'unknown error'})`];
  const problems = (e.problems ?? []).map((p) => `• ${p.message}${p.specPointer ? ` [spec ${p.specPointer}]` : ''}`);
  return [
    `<div class="muted">Request #${e.seq} at ${h(e.startedAt)} (${e.durationMs} ms)${e.note ? ` — ${h(e.note)}` : ''}</div>`,
    `<pre>${h(req.join('\n'))}</pre>`,
    `<pre>${h(res.join('\n'))}</pre>`,
    problems.length > 0 ? `<div class="muted">Spec problems:</div><pre>${h(problems.join('\n'))}</pre>` : '',
    `<div class="muted">Reproduce:</div><pre>${h(toCurl(e))}</pre>`,
  ].join('');
}

/** The target's own words in a refused exchange, unless the failure message already quotes them. */
function targetSaid(message: string, exchanges: readonly Exchange[]): string | undefined {
  const refusal = firstRefusal(exchanges);
  return refusal && !message.includes(refusal.message) ? refusal.message : undefined;
}

/** The waivers of the run, apart from the checks; stale and expired ones fail it. */
function waiversTable(result: RunResult): string {
  const waivers = result.waivers ?? [];
  if (waivers.length === 0) return '';
  const rows = waivers
    .map((w) => {
      const fails = w.state === 'stale' || w.state === 'expired';
      return `<tr><td><code>${h(w.check ?? w.requirement ?? '')}</code></td><td>${h(w.reason)}</td><td>${h(w.owner)}</td><td>${h(w.expires)}</td><td>${chip(fails ? 's-failed' : w.state === 'applied' ? 's-expected-failure' : 's-skipped', w.state)}</td><td>${h(w.message)}</td></tr>`;
    })
    .join('\n');
  return `<h2>Waivers (--expected-failures)</h2>\n<p class="muted">Known failures the vendor waived, each with an owner and an expiry. A stale waiver (its check now passes) or an expired one fails the run.</p>\n<table><thead><tr><th>Check or requirement</th><th>Reason</th><th>Owner</th><th>Expires</th><th>State</th><th>Detail</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

function failureBlock(c: CheckResult): string {
  const f = c.failure;
  if (!f) return '';
  const expected = c.status === 'expected-failure';
  const kv = (k: string, v: string | undefined) =>
    v === undefined || v === '' ? '' : `<div class="kv"><b>${k}</b> <code>${h(v)}</code></div>`;
  return [
    `<div class="failure lvl-${c.failureLevel ?? c.level}${expected ? ' expected' : ''}">`,
    `<div><b>${h(c.id)}</b> — ${h(f.message)}</div>`,
    expected
      ? `<div class="kv"><b>Expected</b> listed as a known failure: ${h(c.expectedFailureReason ?? '')}</div>`
      : '',
    kv('Target said', targetSaid(f.message, f.exchanges)),
    kv('At', f.pointer),
    kv('Received', f.received),
    kv('Expected', f.expected),
    kv('Requirements', f.requirements.join(', ')),
    f.exchanges.length > 0
      ? `<details><summary>Evidence: ${f.exchanges.length} exchange(s)</summary>${f.exchanges.map(exchangeBlock).join('')}</details>`
      : '',
    f.stack ? `<details><summary>Stack</summary><pre>${h(f.stack)}</pre></details>` : '',
    '</div>',
  ].join('');
}

/** A response the interface allows but our decision does not: shown with its evidence, never as a failure. */
function deviationBlock(c: CheckResult, d: DeviationRecord): string {
  const kv = (k: string, v: string | undefined) =>
    v === undefined || v === '' ? '' : `<div class="kv"><b>${k}</b> <code>${h(v)}</code></div>`;
  return [
    '<div class="failure lvl-DECISION">',
    `<div><b>${h(c.id)}</b> — deviation: ${h(d.message)}</div>`,
    kv('Received', d.received),
    kv('Our decision', d.expected),
    `<details><summary>Evidence: ${d.exchanges.length} exchange(s)</summary>${d.exchanges.map(exchangeBlock).join('')}</details>`,
    '</div>',
  ].join('');
}

function requirementRows(reqs: readonly RequirementResult[], checks: ReadonlyMap<string, CheckResult>): string {
  return reqs
    .map((r) => {
      const covering = r.checks.map((id) => checks.get(id)).filter((c): c is CheckResult => c !== undefined);
      const evidence = covering
        .filter(
          (c) =>
            c.failure &&
            c.failure.requirements.includes(r.id) &&
            (c.status === 'failed' || c.status === 'expected-failure'),
        )
        .map(failureBlock)
        .join('');
      const deviations = covering.flatMap((c) =>
        (c.deviations ?? []).filter((d) => d.decisions.includes(r.id)).map((d) => deviationBlock(c, d)),
      );
      const notes = covering.flatMap((c) => c.notes.map((n) => `${c.id}: ${n}`));
      return [
        `<tr id="req-${h(r.id)}"><td><code>${h(r.id)}</code></td><td>${h(r.level)}</td>`,
        `<td>${h(r.statement)}${r.reason ? `<div class="muted">${h(r.reason)}</div>` : ''}${notes.map((n) => `<div class="muted">${h(n)}</div>`).join('')}${evidence}${deviations.join('')}</td>`,
        `<td>${covering.map((c) => `<code>${h(c.id)}</code>`).join('<br>') || '<span class="muted">—</span>'}</td>`,
        `<td>${chip(`v-${r.verdict}`, VERDICT_LABEL[r.verdict])}</td></tr>`,
      ].join('');
    })
    .join('\n');
}

function groupedRequirements(reqs: readonly RequirementResult[], checks: ReadonlyMap<string, CheckResult>): string {
  const families = [...new Set(reqs.map((r) => familyOf(r.id)))].sort((a, b) => {
    const rank = (f: string) => GROUP_ORDER.indexOf(f.replace(/^DEC-/, '')) + 1 || GROUP_ORDER.length + 1;
    return rank(a) - rank(b) || a.localeCompare(b);
  });
  return families
    .map((family) => {
      const rows = reqs.filter((r) => familyOf(r.id) === family);
      const failing = rows.filter((r) => r.verdict === 'fail').length;
      return [
        `<h3>${h(family)} <span class="muted">(${rows.length}${failing ? `, ${failing} failing` : ''})</span></h3>`,
        '<table><thead><tr><th>Id</th><th>Level</th><th>Statement and evidence</th><th>Checks</th><th>Verdict</th></tr></thead><tbody>',
        requirementRows(rows, checks),
        '</tbody></table>',
      ].join('\n');
    })
    .join('\n');
}

function checksTable(checks: readonly CheckResult[]): string {
  const rows = checks.map((c) => {
    const why =
      c.status === 'skipped'
        ? c.skipReason
        : c.status === 'failed' || c.status === 'expected-failure'
          ? c.failure?.message
          : c.status === 'unexpected-pass'
            ? `listed as expected failure: ${c.expectedFailureReason ?? ''}`
            : '';
    return `<tr><td><code>${h(c.id)}</code></td><td>${h(c.title)}</td><td>${h(c.level)}</td><td>${h(c.requirements.join(', '))}</td><td>${chip(`s-${c.status}`, CHECK_LABEL[c.status])}</td><td>${c.durationMs} ms</td><td>${h(why ?? '')}</td></tr>`;
  });
  return `<table><thead><tr><th>Check</th><th>Title</th><th>Level</th><th>Requirements</th><th>Status</th><th>Time</th><th>Detail</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

/** Renders the page for a result (with or without its integrity member; it is recomputed). */
/** The target's choices where the interface is silent, with their source. */
function variantsTable(result: RunResult): string {
  const variants = result.targetVariants ?? [];
  if (variants.length === 0) return '';
  const rows = variants
    .map(
      (v) =>
        `<tr><th>${h(v.name)}</th><td><code>${h(v.value)}</code> <span class="muted">(${h(v.source)}${v.note ? `: ${h(v.note)}` : ''})</span></td></tr>`,
    )
    .join('\n');
  return `<h2>Target variants</h2>\n<p class="muted">What the target chose where the interface says "not shown": declared in the config file, discovered at the start of the run, or the default.</p>\n<table class="variants">\n${rows}\n</table>`;
}

export function renderHtml(result: RunResult): string {
  const sealed = withIntegrity({ ...result, integrity: undefined } as RunResult);
  const checks = new Map(result.checks.map((c) => [c.id, c]));
  const interfaceReqs = result.requirements.filter((r) => r.level !== 'DECISION');
  const decisions = result.requirements.filter((r) => r.level === 'DECISION');
  const s = result.summary.requirements;
  const root = result.rootFailure ? checks.get(result.rootFailure) : undefined;
  const scope = verdictScope(result);
  const verdictText = `${RUN_VERDICT_LABEL[result.verdict]}${scope ? ` — ${scope}` : ''}`;
  const card = (n: number, label: string, cls: string) => `<div class="card"><b>${n}</b>${chip(cls, label)}</div>`;
  const cleanupFailed = result.cleanup.filter((c) => !c.ok);
  const embedded = JSON.stringify(sealed).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance report: ${h(result.target)} — ${result.verdict.toUpperCase()}</title>
<style>${CSS}</style>
</head>
<body>
<h1>Content Service conformance report</h1>
<div class="verdict ${result.verdict}">${h(verdictText)}</div>
<table class="facts">
<tr><th>Target</th><td><code>${h(result.target)}</code></td></tr>
<tr><th>Date</th><td>${h(result.startedAt)} (${(result.durationMs / 1000).toFixed(1)} s)</td></tr>
<tr><th>Suite</th><td>${h(result.suite.name)} ${h(result.suite.version)}</td></tr>
<tr><th>Spec SHA-256</th><td><code>${h(result.spec.sha256)}</code> <span class="muted">(${h(result.spec.file)})</span></td></tr>
<tr><th>Profile</th><td>${h(result.profile)}</td></tr>
<tr><th>${result.seed === undefined ? 'Run id' : 'Seed / run id'}</th><td>${result.seed === undefined ? '' : `<code>${result.seed}</code> / `}<code>${h(result.runId)}</code></td></tr>
<tr><th>Result SHA-256</th><td><code>${h(sealed.integrity.value)}</code></td></tr>
</table>
${variantsTable(result)}
<div class="cards">
${card(s.pass, 'pass', 'v-pass')}${card(s.fail, 'fail', 'v-fail')}${card(s.warn, 'warn', 'v-warn')}${card(s['not-verified'], 'not verified', 'v-not-verified')}${card(s['not-verifiable'] ?? 0, 'not verifiable black-box', 'v-not-verifiable')}${card(s['expected-failure'], 'expected failure', 'v-expected-failure')}${card(s['decision-pass'], 'decision: pass', 'v-decision-pass')}${card(s['decision-fail'], 'decision: fail', 'v-decision-fail')}${card(s['client-library'], 'client library', 'v-client-library')}
</div>
<p class="muted">MUST failures fail the run; SHOULD failures warn; DECISION requirements (behaviour the interface leaves open and this project's spec decided) are reported apart and never fail a vendor. "Not verified" is not a pass. "Not verifiable black-box" marks requirements no test run can observe (an inbound feed the suite does not control, a 24-hour horizon); the row says where they are verified instead.</p>
${root ? `<h2>Root failure</h2>${failureBlock(root)}` : ''}
<h2>Requirements of the interface</h2>
${groupedRequirements(interfaceReqs, checks)}
<h2>Decisions (reported apart, never fail)</h2>
${groupedRequirements(decisions, checks)}
${waiversTable(result)}
<h2>Checks</h2>
${checksTable(result.checks)}
${cleanupFailed.length > 0 ? `<h2>Cleanup</h2><p>${cleanupFailed.length} cleanup step(s) failed; test data tagged <code>${h(result.runId)}</code> may remain.</p><pre>${h(cleanupFailed.map((c) => `${c.description}: ${c.error ?? ''}`).join('\n'))}</pre>` : ''}
<footer>
<p>To check that this report is unchanged: <code>npx content-conformance verify-report &lt;this file&gt;</code>. It recomputes the SHA-256 of the embedded result (canonical JSON, RFC 8785) and re-renders this page from it. Compare the hash with the one published by whoever ran the suite.</p>
</footer>
<script type="application/json" id="${RESULT_SCRIPT_ID}">${embedded}</script>
</body>
</html>
`;
}

/** The result embedded in an HTML report, or undefined. */
export function extractEmbeddedResult(html: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${RESULT_SCRIPT_ID}">([\\s\\S]*?)</script>`).exec(html);
  return match ? parseJson(match[1]!) : undefined;
}

export const htmlReporter: FileReporter = { kind: 'html', fileName: 'report.html', render: renderHtml };
