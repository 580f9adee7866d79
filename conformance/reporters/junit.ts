// JUnit XML for CI dashboards: one <testsuite> per requirement group, one <testcase> per check.
// MUST failures are <failure>s; SHOULD/DECISION failures and expected failures are <skipped>
// with the reason (they do not fail the run), so dashboards stay in line with the exit code.
// Deviations from our decisions (responses the interface allows) are `decision-deviation` properties.
// Waivers form a suite of their own: a stale or expired one is a <failure>, as it fails the run.

import type { CheckResult, RunResult } from '../engine/results/result.ts';
import type { FileReporter } from '../engine/events.ts';
import type { WaiverResult } from '../engine/results/waivers.ts';
import { firstRefusal } from '../model/targetMessage.ts';
import { escapeXml } from './xml.ts';

function failureText(c: CheckResult): string {
  const f = c.failure;
  if (!f) return '';
  const lines = [f.message];
  const refusal = firstRefusal(f.exchanges);
  if (refusal && !f.message.includes(refusal.message)) lines.push(`Target said: ${refusal.message}`);
  if (f.pointer) lines.push(`At: ${f.pointer}`);
  if (f.received !== undefined) lines.push(`Received: ${f.received}`);
  if (f.expected !== undefined) lines.push(`Expected: ${f.expected}`);
  lines.push(`Requirements: ${f.requirements.join(', ')}`);
  for (const e of f.exchanges)
    lines.push(`${e.request.method} ${e.request.url} → ${e.response?.status ?? e.error ?? '-'}`);
  return lines.join('\n');
}

function testcase(c: CheckResult): string {
  const attrs = `classname="${escapeXml(c.group)}" name="${escapeXml(`${c.id}: ${c.title}`)}" time="${(c.durationMs / 1000).toFixed(3)}"`;
  const deviations = (c.deviations ?? []).map(
    (d) => `<property name="decision-deviation" value="${escapeXml(`${d.decisions.join(',')}: ${d.message}`)}"/>`,
  );
  const props = `<properties><property name="level" value="${c.level}"/><property name="requirements" value="${escapeXml(c.requirements.join(','))}"/>${deviations.join('')}</properties>`;
  let body = '';
  if (c.status === 'failed' && c.failureLevel === 'MUST') {
    body = `<failure message="${escapeXml(c.failure?.message ?? '')}" type="${c.failure?.kind ?? 'assertion'}">${escapeXml(failureText(c))}</failure>`;
  } else if (c.status === 'failed') {
    body = `<skipped message="${escapeXml(`${c.failureLevel} not met (does not fail the run): ${c.failure?.message ?? ''}`)}"/>`;
  } else if (c.status === 'unexpected-pass') {
    body = `<failure message="${escapeXml(`unexpected pass; listed as expected failure: ${c.expectedFailureReason ?? ''}`)}" type="unexpected-pass"/>`;
  } else if (c.status === 'expected-failure') {
    body = `<skipped message="${escapeXml(`expected failure: ${c.expectedFailureReason ?? ''}`)}"/>`;
  } else if (c.status === 'skipped') {
    body = `<skipped message="${escapeXml(c.skipReason ?? '')}"/>`;
  }
  return `    <testcase ${attrs}>${props}${body}</testcase>`;
}

function waiverSuite(result: RunResult): string[] {
  const waivers = result.waivers ?? [];
  if (waivers.length === 0) return [];
  const fails = (w: WaiverResult) => w.state === 'stale' || w.state === 'expired';
  const cases = waivers.map((w) => {
    const name = w.check !== undefined ? `check ${w.check}` : `requirement ${w.requirement}`;
    const props = `<properties><property name="owner" value="${escapeXml(w.owner)}"/><property name="expires" value="${w.expires}"/><property name="state" value="${w.state}"/><property name="reason" value="${escapeXml(w.reason)}"/></properties>`;
    const body = fails(w)
      ? `<failure message="${escapeXml(w.message)}" type="waiver-${w.state}"/>`
      : `<system-out>${escapeXml(w.message)}</system-out>`;
    return `    <testcase classname="waivers" name="${escapeXml(`waiver: ${name}`)}" time="0.000">${props}${body}</testcase>`;
  });
  return [
    `  <testsuite name="waivers" tests="${waivers.length}" failures="${waivers.filter(fails).length}" errors="0" skipped="0" time="0.000" timestamp="${result.startedAt}">`,
    ...cases,
    '  </testsuite>',
  ];
}

export function renderJunit(result: RunResult): string {
  const groups = new Map<string, CheckResult[]>();
  for (const c of result.checks) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  const isFailure = (c: CheckResult) =>
    (c.status === 'failed' && c.failureLevel === 'MUST') || c.status === 'unexpected-pass';
  const isSkipped = (c: CheckResult) => !isFailure(c) && c.status !== 'passed';
  // The target's variants travel with every suite: CI dashboards show suite properties per suite.
  const variants = (result.targetVariants ?? [])
    .map((v) => `<property name="variant.${escapeXml(v.name)}" value="${escapeXml(`${v.value} (${v.source})`)}"/>`)
    .join('');
  const properties = variants ? `    <properties>${variants}</properties>` : undefined;
  const suites = [...groups.entries()].map(([group, checks]) => {
    const time = checks.reduce((t, c) => t + c.durationMs, 0) / 1000;
    return [
      `  <testsuite name="${escapeXml(group)}" tests="${checks.length}" failures="${checks.filter(isFailure).length}" errors="0" skipped="${checks.filter(isSkipped).length}" time="${time.toFixed(3)}" timestamp="${result.startedAt}">`,
      ...(properties ? [properties] : []),
      ...checks.map(testcase),
      '  </testsuite>',
    ].join('\n');
  });
  const waivers = result.waivers ?? [];
  const waiverFailures = waivers.filter((w) => w.state === 'stale' || w.state === 'expired').length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="content-conformance ${escapeXml(result.target)}" tests="${result.checks.length + waivers.length}" failures="${result.checks.filter(isFailure).length + waiverFailures}" skipped="${result.checks.filter(isSkipped).length}" time="${(result.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    ...waiverSuite(result),
    '</testsuites>',
    '',
  ].join('\n');
}

export const junitReporter: FileReporter = { kind: 'junit', fileName: 'junit.xml', render: renderJunit };
