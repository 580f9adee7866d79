// The certification report must open in a browser by itself: headless Chromium loads it from a
// file, makes no other request, and shows the verdict. A screenshot is kept in reports/.
// Never downloads a browser: it drives /usr/bin/chromium (apt-get install -y chromium), or
// CHROMIUM_PATH. Outside CI a missing browser skips this file with a message; with CI=true it fails.

import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../engine/results/result.ts';
import { renderHtml } from './html.ts';

const CHROMIUM = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
].find((p) => p && existsSync(p));
const inCI = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';
if (!CHROMIUM && !inCI) {
  console.warn(
    'SKIPPED conformance/reporters/html.browser.test.ts: /usr/bin/chromium not found. Install it with `apt-get install -y chromium` or set CHROMIUM_PATH (CI=true makes this a failure).',
  );
}
const OUT = fileURLToPath(new URL('../../reports/conformance-selftest/', import.meta.url));

const result: RunResult = {
  schema: 'content-conformance-result/1',
  suite: { name: 'content-conformance', version: '0.1.0' },
  target: 'https://content.example.com/api',
  profile: 'certification',
  seed: 42,
  runId: 'ctf-k3x9q2',
  spec: { file: 'openapi.json', sha256: 'a'.repeat(64) },
  startedAt: '2026-11-22T10:00:00.000Z',
  finishedAt: '2026-11-22T10:01:00.000Z',
  durationMs: 60_000,
  verdict: 'fail',
  exitCode: 1,
  rootFailure: 'lists.bare-array',
  summary: {
    checks: { passed: 1, failed: 1, skipped: 0, 'expected-failure': 0, 'unexpected-pass': 0 },
    requirements: {
      pass: 1,
      fail: 1,
      warn: 0,
      'not-verified': 0,
      'not-verifiable': 0,
      'expected-failure': 0,
      'decision-pass': 0,
      'decision-fail': 0,
      'client-library': 1,
    },
  },
  checks: [
    {
      id: 'health.responds',
      title: 'Health',
      group: 'HEALTH',
      requirements: ['HEALTH-001'],
      level: 'MUST',
      tags: [],
      needs: [],
      writes: undefined,
      order: 'normal',
      dependsOn: [],
      status: 'passed',
      durationMs: 12,
      unverified: [],
      verified: [],
      notes: [],
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
      durationMs: 30,
      failure: {
        kind: 'assertion',
        message: 'GET /api/events?size=5 did not answer a bare JSON array',
        received: 'JSON object',
        expected: 'a bare JSON array',
        pointer: '',
        requirements: ['LIST-001'],
        exchanges: [],
      },
      unverified: [],
      verified: [],
      notes: [],
      exchangeCount: 1,
      evidence: [],
    },
  ],
  requirements: [
    {
      id: 'HEALTH-001',
      level: 'MUST',
      subject: 'service',
      section: 's',
      statement: 'GET /actuator/health is a health check and is not rate limited.',
      verdict: 'pass',
      checks: ['health.responds'],
    },
    {
      id: 'LIST-001',
      level: 'MUST',
      subject: 'service',
      section: 's',
      statement: 'Lists return a bare JSON array of TRCItems.',
      verdict: 'fail',
      checks: ['lists.bare-array'],
    },
    {
      id: 'SYNC-001',
      level: 'MUST',
      subject: 'client',
      section: 's',
      statement: 'Keep a high-water mark.',
      verdict: 'client-library',
      checks: [],
      reason: 'a client obligation: covered by the client library tests',
    },
  ],
  cleanup: [],
};

describe.skipIf(!CHROMIUM && !inCI)('report.html in headless Chromium', () => {
  it('when opened from a file, then it renders the verdict without fetching anything else', async () => {
    if (!CHROMIUM)
      throw new Error(
        '/usr/bin/chromium is missing and CI=true: .ci/run must install it (apt-get install -y chromium), or set CHROMIUM_PATH',
      );
    const { chromium } = await import('playwright-core');
    await mkdir(OUT, { recursive: true });
    const file = join(OUT, 'report.html');
    await writeFile(file, renderHtml(result));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(`file://${file}`);
      expect(await page.textContent('.verdict')).toBe('FAIL');
      expect(await page.locator('#req-LIST-001 .chip').textContent()).toBe('fail');
      expect(await page.locator('#req-SYNC-001 .chip').textContent()).toBe('covered by the client library tests');
      expect(requests).toEqual([`file://${file}`]);
      await page.screenshot({ path: join(OUT, 'report.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  }, 30_000);
});
