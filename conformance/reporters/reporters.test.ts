import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { integrityOf, verifyResultObject } from './integrity.ts';
import type { CheckResult, RunResult } from '../engine/results/result.ts';
import { verifyReportFile } from './verifyReport.ts';
import { paint } from './ansi.ts';
import { createConsoleReporter, summaryLines } from './console.ts';
import { extractEmbeddedResult, renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { createStepSummaryReporter, renderStepSummary } from './stepSummary.ts';

const exchange = {
  seq: 1,
  startedAt: '2026-11-22T00:00:00.000Z',
  durationMs: 3,
  request: {
    method: 'GET',
    url: 'http://t/api/events?size=5',
    headers: { authorization: 'Bearer $CONFORMANCE_TOKEN' },
    bodyBytes: 0,
    truncated: false,
  },
  response: {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"results":[]}',
    bodyBytes: 14,
    truncated: false,
  },
};

const result: RunResult = {
  schema: 'content-conformance-result/1',
  suite: { name: 'content-conformance', version: '9.9.9' },
  target: 'http://t/api',
  profile: 'full',
  seed: 3,
  runId: 'ctf-abcdef',
  spec: { file: 'openapi.json', sha256: 'f'.repeat(64) },
  startedAt: '2026-11-22T00:00:00.000Z',
  finishedAt: '2026-11-22T00:00:01.000Z',
  durationMs: 1000,
  verdict: 'fail',
  exitCode: 1,
  rootFailure: 'lists.bare-array',
  summary: {
    checks: { passed: 1, failed: 2, skipped: 1, 'expected-failure': 0, 'unexpected-pass': 0 },
    requirements: {
      pass: 1,
      fail: 1,
      warn: 1,
      'not-verified': 0,
      'not-verifiable': 1,
      'expected-failure': 0,
      'decision-pass': 0,
      'decision-fail': 0,
      'client-library': 1,
    },
  },
  checks: [
    {
      id: 'health.responds',
      title: 'Health <ok>',
      group: 'HEALTH',
      requirements: ['HEALTH-001'],
      level: 'MUST',
      tags: [],
      needs: [],
      writes: undefined,
      order: 'normal',
      dependsOn: [],
      status: 'passed',
      durationMs: 5,
      unverified: [],
      verified: [],
      notes: ['a note & more'],
      exchangeCount: 1,
      evidence: [],
    },
    {
      id: 'lists.bare-array',
      title: 'Bare array',
      group: 'LIST',
      requirements: ['LIST-001'],
      level: 'MUST',
      tags: [],
      needs: [],
      writes: undefined,
      order: 'normal',
      dependsOn: [],
      status: 'failed',
      failureLevel: 'MUST',
      durationMs: 7,
      failure: {
        kind: 'assertion',
        message: 'GET /api/events?size=5 did not answer a bare JSON array',
        received: 'JSON object',
        expected: 'a bare JSON array',
        pointer: '',
        requirements: ['LIST-001'],
        exchanges: [exchange],
      },
      unverified: [],
      verified: [],
      notes: [],
      exchangeCount: 1,
      evidence: [exchange],
    },
    {
      id: 'sync.reconcile',
      title: 'Reconcile',
      group: 'SYNC',
      requirements: ['SYNC-006'],
      level: 'SHOULD',
      tags: [],
      needs: [],
      writes: undefined,
      order: 'normal',
      dependsOn: [],
      status: 'failed',
      failureLevel: 'SHOULD',
      durationMs: 1,
      failure: { kind: 'assertion', message: 'should <warn>', requirements: ['SYNC-006'], exchanges: [] },
      unverified: [],
      verified: [],
      notes: [],
      exchangeCount: 0,
      evidence: [],
    },
    {
      id: 'hooks.sign',
      title: 'Sign',
      group: 'HOOK',
      requirements: ['HOOK-011'],
      level: 'MUST',
      tags: [],
      needs: ['webhook'],
      writes: 'a token',
      order: 'normal',
      dependsOn: [],
      status: 'skipped',
      skipReason: 'needs an admin token',
      durationMs: 0,
      unverified: [],
      verified: [],
      notes: [],
      exchangeCount: 0,
      evidence: [],
    },
  ],
  requirements: [
    {
      id: 'HEALTH-001',
      level: 'MUST',
      subject: 'service',
      section: 's',
      statement: 'Health',
      verdict: 'pass',
      checks: ['health.responds'],
    },
    {
      id: 'LIST-001',
      level: 'MUST',
      subject: 'service',
      section: 's',
      statement: 'Bare array',
      verdict: 'fail',
      checks: ['lists.bare-array'],
    },
    {
      id: 'SYNC-006',
      level: 'SHOULD',
      subject: 'service',
      section: 's',
      statement: 'Reconcile',
      verdict: 'warn',
      checks: ['sync.reconcile'],
    },
    {
      id: 'SYNC-001',
      level: 'MUST',
      subject: 'client',
      section: 's',
      statement: 'Mark',
      verdict: 'client-library',
      checks: [],
      reason: 'a client obligation: covered by the client library tests',
    },
    {
      id: 'HOOK-019',
      level: 'MUST',
      subject: 'service',
      section: 's',
      statement: 'Token stays active',
      verdict: 'not-verifiable',
      checks: [],
      reason: 'not verifiable black-box (unobservable), covered by: the worker tests',
    },
  ],
  cleanup: [{ description: 'x: soft-delete /events/1', ok: false, error: 'DELETE /events/1 answered 500' }],
};

describe('renderJunit', () => {
  it('when rendered, then it is well-formed with a suite per group and MUST failures as failures', () => {
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(renderJunit(result));
    expect(doc.testsuites).toMatchObject({ tests: '4', failures: '1', skipped: '2' });
    const suites = doc.testsuites.testsuite as {
      name: string;
      testcase: { name: string; failure?: { message: string }; skipped?: { message: string } };
    }[];
    expect(suites.map((s) => s.name)).toEqual(['HEALTH', 'LIST', 'SYNC', 'HOOK']);
    expect(suites[1]!.testcase.failure!.message).toBe('GET /api/events?size=5 did not answer a bare JSON array');
    expect(suites[2]!.testcase.skipped!.message).toBe('SHOULD not met (does not fail the run): should <warn>');
    expect(suites[0]!.testcase.name).toBe('health.responds: Health <ok>');
  });
});

describe('renderHtml', () => {
  const html = renderHtml(result);

  it('when rendered, then the page states target, suite version, spec hash, profile and verdict', () => {
    expect(html).toContain('<code>http://t/api</code>');
    expect(html).toContain('content-conformance 9.9.9');
    expect(html).toContain(`<code>${'f'.repeat(64)}</code>`);
    expect(html).toContain('<tr><th>Profile</th><td>full</td></tr>');
    expect(html).toContain('<div class="verdict fail">FAIL</div>');
  });

  it('when rendered, then it is self-contained: no external links, scripts or stylesheets', () => {
    expect(html).not.toMatch(/<link|<img|src=|https?:\/\/(?!t\/api)/);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('<script type="application/json" id="conformance-result">');
  });

  it('when rendered, then evidence, client-library rows and escaped text appear', () => {
    expect(html).toContain('Root failure');
    expect(html).toContain('GET http://t/api/events?size=5');
    expect(html).toContain('authorization: Bearer $CONFORMANCE_TOKEN');
    expect(html).toContain('covered by the client library tests');
    expect(html).toMatch(
      /<tr id="req-HOOK-019">.*not verifiable black-box \(unobservable\), covered by: the worker tests.*<span class="chip v-not-verifiable">not verifiable black-box<\/span>/s,
    );
    expect(html).toContain('Health &lt;ok&gt;');
    expect(html).toContain('a note &amp; more');
    expect(html).toContain('DELETE /events/1 answered 500');
  });

  it('when the embedded result is extracted, then it carries the same integrity as the JSON report', () => {
    const embedded = extractEmbeddedResult(html) as { integrity: { value: string } };
    expect(embedded.integrity.value).toBe(integrityOf(result).value);
    expect(JSON.parse(renderJson(result)).integrity.value).toBe(integrityOf(result).value);
  });
});

describe('integrity', () => {
  it('when nothing changed, then the hash verifies; when one value changed, then it does not', () => {
    const sealed = JSON.parse(renderJson(result));
    expect(verifyResultObject(sealed).ok).toBe(true);
    sealed.verdict = 'pass';
    expect(verifyResultObject(sealed)).toMatchObject({ ok: false });
    expect(verifyResultObject({ ...result }).message).toBe('the report carries no integrity hash');
  });

  it('when key order or whitespace differ, then the hash is the same (canonical form)', () => {
    const sealed = JSON.parse(renderJson(result));
    const reordered = Object.fromEntries(Object.entries(sealed).reverse());
    expect(verifyResultObject(JSON.parse(JSON.stringify(reordered, null, 7))).ok).toBe(true);
  });

  it('when a report file is edited, then verify-report says so for JSON and for HTML', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ctf-verify-'));
    const json = join(dir, 'result.json');
    const html = join(dir, 'report.html');
    await writeFile(json, renderJson(result));
    await writeFile(html, renderHtml(result));
    expect(await verifyReportFile(json, '9.9.9')).toMatchObject({ ok: true });
    expect(await verifyReportFile(html, '9.9.9')).toEqual({
      ok: true,
      message: `integrity ok: sha256 ${integrityOf(result).value}; the page matches its embedded result`,
    });
    expect((await verifyReportFile(html, '1.0.0')).message).toContain(
      'page not re-rendered (written by suite 9.9.9, this is 1.0.0)',
    );
    await writeFile(
      html,
      renderHtml(result).replace('<div class="verdict fail">FAIL</div>', '<div class="verdict pass">PASS</div>'),
    );
    expect(await verifyReportFile(html, '9.9.9')).toMatchObject({
      ok: false,
      message: 'the page was edited: it differs from the page rendered from its embedded result',
    });
    await writeFile(json, renderJson(result).replace('"verdict": "fail"', '"verdict": "pass"'));
    expect((await verifyReportFile(json, '9.9.9')).message).toMatch(/^integrity mismatch/);
  });
});

describe('deviations from our decisions', () => {
  const deviation = {
    decisions: ['DEC-ERR-001'],
    message: 'GET /api/events → 400 differs from our decision: Content-Type text/plain is not documented',
    received: 'text/plain',
    expected: 'application/json',
    exchanges: [exchange],
  };
  const withDeviation: RunResult = {
    ...result,
    checks: result.checks.map((c) => (c.id === 'health.responds' ? { ...c, deviations: [deviation] } : c)),
    requirements: [
      ...result.requirements,
      {
        id: 'DEC-ERR-001',
        level: 'DECISION',
        subject: 'service',
        section: 's',
        statement: 'Error shape',
        verdict: 'decision-fail',
        checks: ['health.responds'],
        reason: `health.responds: ${deviation.message}`,
      },
    ],
  };

  it('when a check saw a deviation, then console, HTML and JUnit list it under decisions', () => {
    const text = summaryLines(withDeviation, [], paint(false)).join('\n');
    expect(text).toContain('Deviations from our decisions (the interface allows them; never fail): 1');
    expect(text).toContain(`~ DEC-ERR-001 (health.responds): ${deviation.message}`);
    const html = renderHtml(withDeviation);
    const decisions = html.slice(html.indexOf('<h2>Decisions'), html.indexOf('<h2>Checks'));
    expect(decisions).toContain('deviation: GET /api/events → 400 differs from our decision');
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(renderJunit(withDeviation));
    type Case = { name: string; properties: { property: { name: string; value: string }[] }; failure?: unknown };
    const cases: Case[] = [doc.testsuites.testsuite]
      .flat()
      .flatMap((s: { testcase: Case | Case[] }) => [s.testcase].flat());
    const health = cases.find((c) => c.name.startsWith('health.responds'))!;
    expect(health.properties.property).toContainEqual({
      name: 'decision-deviation',
      value: `DEC-ERR-001: ${deviation.message}`,
    });
    expect(health.failure).toBeUndefined();
  });
});

describe('GitHub step summary', () => {
  const files = [{ kind: 'html' as const, path: 'reports/conformance/report.html' }];

  it('when rendered, then it gives the verdict, the counts and each failure with its requirement ids, root failure first', () => {
    const md = renderStepSummary(result, files, 'https://github.com/acme/api/actions/runs/42');
    expect(md.split('\n')[0]).toBe('## ❌ Content Service conformance: FAIL (exit 1)');
    expect(md).toContain('Target `http://t/api` · profile `full` · content-conformance 9.9.9 · seed 3');
    expect(md).toContain('| Checks | 1 | 2 | 1 skipped, 0 expected failures, 0 unexpected passes |');
    const rows = md.split('\n').filter((l) => l.startsWith('| `'));
    expect(rows).toEqual([
      '| `lists.bare-array` | MUST | LIST-001 | GET /api/events?size=5 did not answer a bare JSON array |',
      '| `sync.reconcile` | SHOULD | SYNC-006 | should <warn> |',
    ]);
    expect(md).toContain(
      'Report: `reports/conformance/report.html` (upload the report directory as an artifact: [this run](https://github.com/acme/api/actions/runs/42) lists it)',
    );
  });

  it('when the profile is consumer, then the summary says it is the read-only subset', () => {
    const md = renderStepSummary({ ...result, profile: 'consumer', verdict: 'pass', exitCode: 0 }, [], undefined);
    expect(md).toContain('## ✅ Content Service conformance: PASS (exit 0)');
    expect(md).toContain('> profile consumer: the read-only subset only, not a certification');
  });

  it('when GITHUB_STEP_SUMMARY names a file, then the reporter appends to it at the end of the run', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'ctf-summary-')), 'summary.md');
    await writeFile(file, '# earlier step\n');
    const reporter = createStepSummaryReporter({ file });
    await reporter.onEvent({ type: 'check-start', check: result.checks[0]! });
    await reporter.onEvent({ type: 'run-end', result, files });
    const written = await readFile(file, 'utf8');
    expect(written.startsWith('# earlier step\n## ❌ Content Service conformance: FAIL')).toBe(true);
    expect(written).toContain('| `lists.bare-array` | MUST | LIST-001 |');
  });
});

describe('a failure after a refused setup step, and waivers', () => {
  const refused = {
    ...exchange,
    request: { ...exchange.request, method: 'POST', url: 'http://t/api/accounts/a/tokens' },
    response: {
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: '{"status":400,"error":"Bad Request","message":"callBackUrl host must be a public address"}',
      bodyBytes: 90,
      truncated: false,
    },
  };
  const hook = result.checks[3]!;
  const waived: RunResult = {
    ...result,
    checks: [
      {
        ...hook,
        status: 'failed',
        failureLevel: 'MUST',
        durationMs: 9,
        skipReason: undefined,
        failure: {
          kind: 'assertion',
          message: 'POST /api/accounts/a/tokens answered 400: could not create a token',
          requirements: ['HOOK-011'],
          exchanges: [refused],
        },
      },
    ],
    rootFailure: 'hooks.sign',
    waivers: [
      {
        check: 'lists.*',
        reason: 'known',
        owner: 'qa',
        expires: '2026-11-01',
        state: 'expired',
        checks: ['lists.bare-array'],
        message: 'waiver for check lists.* expired on 2026-11-01 (owner qa): it waives nothing now',
      },
      {
        requirement: 'SYNC-*',
        reason: 'slow',
        owner: 'ops',
        expires: '2026-12-01',
        state: 'applied',
        checks: ['sync.reconcile'],
        message: 'waives the failure of sync.reconcile',
      },
    ],
  };

  it("when a step the check needed was refused, then console and HTML show the target's own message", () => {
    const text = summaryLines(waived, [], paint(false)).join('\n');
    expect(text).toContain(
      'Target said: callBackUrl host must be a public address (POST http://t/api/accounts/a/tokens → 400)',
    );
    expect(renderHtml(waived)).toContain('<b>Target said</b> <code>callBackUrl host must be a public address</code>');
    expect(renderJunit(waived)).toContain('Target said: callBackUrl host must be a public address');
  });

  it('when the run had waivers, then console, HTML and JUnit list them apart, the expired one as failing', () => {
    const text = summaryLines(waived, [], paint(false)).join('\n');
    expect(text).toContain('Waivers: 2 (1 applied, 0 stale, 1 expired, 0 unused)');
    expect(text).toContain('  ! expired: waiver for check lists.* expired on 2026-11-01 (owner qa)');
    expect(text).toContain(
      '  · applied: requirement SYNC-* (owner ops, expires 2026-12-01): waives the failure of sync.reconcile',
    );
    expect(renderHtml(waived)).toContain('<h2>Waivers (--expected-failures)</h2>');
    const xml = new XMLParser({ ignoreAttributes: false }).parse(renderJunit(waived));
    const suites = [xml.testsuites.testsuite].flat() as { '@_name': string; '@_failures': string }[];
    expect(suites.find((s) => s['@_name'] === 'waivers')).toMatchObject({ '@_failures': '1' });
  });
});

describe('console progress', () => {
  it('when checks overlap (started before the previous ended), then each ends on its own counted line', async () => {
    let text = '';
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    const reporter = createConsoleReporter({ out, color: false, live: false });
    const [health, list, , hook] = result.checks as [CheckResult, CheckResult, CheckResult, CheckResult];
    await reporter.onEvent({
      type: 'run-start',
      info: result,
      plan: [
        { check: health, run: true },
        { check: list, run: true },
        { check: hook, run: false, skipReason: 'needs an admin token' },
      ],
    });
    await reporter.onEvent({ type: 'check-start', check: health });
    await reporter.onEvent({ type: 'check-start', check: list });
    await reporter.onEvent({ type: 'check-end', result: list });
    await reporter.onEvent({ type: 'check-end', result: hook });
    await reporter.onEvent({ type: 'check-end', result: health });
    expect(text).toContain('2 of 3 checks to run; 1 skipped (summary at the end)');
    expect(text).toMatch(/\[2\/2\] ✗ lists\.bare-array \(7 ms\) FAIL/);
    expect(text).toMatch(/\[1\/2\] ✓ health\.responds \(5 ms\)/);
    expect(text).not.toContain('hooks.sign');
  });
});
