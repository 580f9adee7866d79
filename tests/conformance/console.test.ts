// The console of real runs against the reference service (started as a child process, the suite
// in this process): a consumer run's output, replayed through the console reporter as the CLI
// emits it, is a snapshot (counter, skipped-check summary, not-verified levels); and a webhook
// check whose callback the target refuses shows the target's own message, not a TLS guess.

import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanEntry } from '../../conformance/engine/plan/select.ts';
import type { RunResult } from '../../conformance/engine/results/result.ts';
import { createConsoleReporter } from '../../conformance/reporters/console.ts';
import { runInProcess } from '../../conformance/test/runInProcess.ts';
import { freePort } from './support/feedPartner.ts';
import { REFERENCE_TIMING, startReferenceService } from './support/referenceService.ts';
import type { ReferenceService } from './support/referenceService.ts';

/** The console a run's events produce: run-start, check-start/end in run order, run-end. */
async function consoleOf(result: RunResult, options: { live: boolean; verbose?: boolean }): Promise<string> {
  let text = '';
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  const reporter = createConsoleReporter({ out, color: false, ...options });
  // A planned skip never started: no time and no exchange (the runner emits it without check-start).
  const ran = (c: RunResult['checks'][number]) =>
    !(c.status === 'skipped' && c.durationMs === 0 && c.exchangeCount === 0);
  const plan: PlanEntry[] = result.checks.map((c) => ({ check: c, run: ran(c), skipReason: c.skipReason }));
  await reporter.onEvent({ type: 'run-start', info: result, plan });
  for (const c of result.checks) {
    if (ran(c)) await reporter.onEvent({ type: 'check-start', check: c });
    await reporter.onEvent({ type: 'check-end', result: c });
  }
  await reporter.onEvent({ type: 'run-end', result, files: [] });
  return text;
}

/** Run-specific values (times, ids, ports, hashes) replaced, so the snapshot holds what is stable. */
function normalise(text: string): string {
  return text
    .replace(/\(\d+(?:\.\d+)? m?s\)/g, '(<time>)')
    .replace(/; \d+(?:\.\d+)? m?s$/gm, '; <time>')
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:<port>')
    .replace(/run id [\w-]+/g, 'run id <run-id>')
    .replace(/sha256 [0-9a-f]{64}/g, 'sha256 <sha>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/conformance \S+\n/, 'conformance <version>\n');
}

describe('the console of a consumer run against the reference service', () => {
  let service: ReferenceService | undefined;
  let result: RunResult;
  beforeAll(async () => {
    service = await startReferenceService({ timeoutMs: 240_000 });
    result = await runInProcess(['--base-url', service.baseUrl, '--seed', '11', '--num-runs', '5'], {
      CONFORMANCE_TOKEN: service.tokens.consumer,
    });
  }, 480_000);
  afterAll(async () => service?.stop());

  it('when written line per check (no terminal), then it counts the checks that run and sums up skips by reason', async () => {
    const text = await consoleOf(result, { live: false });
    expect(text).toMatch(/^\[ ?1\/\d+\] /m);
    expect(text).toMatch(/^Skipped: \d+ checks \(--verbose lists them\)$/m);
    expect(text).toMatch(/^ +\d+ × writes to the target; the consumer profile is read-only \(use --profile full\)$/m);
    expect(text).not.toContain('skipped: writes to the target');
    expect(text).not.toContain('undefined');
    expect(normalise(text)).toMatchSnapshot();
  });

  it('when written to a terminal, then a live line names each check while it runs and is cleared after', async () => {
    const text = await consoleOf(result, { live: true });
    const first = result.checks.find((c) => c.status !== 'skipped')!;
    expect(text).toContain(`\r\u001b[2K[ 1/`);
    expect(text).toContain(`${first.id} ${first.title}`);
  });

  it('when --verbose is given, then every skipped check is listed under its reason', async () => {
    const text = await consoleOf(result, { live: false, verbose: true });
    const skipped = result.checks.filter((c) => c.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    for (const c of skipped) expect(text).toContain(`○ ${c.id} ${c.title}`);
  });
});

describe('a webhook check whose callback the target refuses', () => {
  let service: ReferenceService | undefined;
  beforeAll(async () => {
    // Callbacks to private addresses refused, as in production.
    service = await startReferenceService({ env: { ALLOW_INSECURE_CALLBACKS: 'false' }, timeoutMs: 240_000 });
  }, 300_000);
  afterAll(async () => service?.stop());

  it("when the target answers the token creation with its reason, then the failure and the console show the target's message, not a TLS hint", async () => {
    const result = await runInProcess(
      [
        '--base-url',
        service!.baseUrl,
        '--profile',
        'full',
        '--account-id',
        service!.accountId,
        // An https callback on a loopback address: past the scheme check, refused for its host.
        '--callback-url',
        `https://127.0.0.1:${await freePort()}/hook`,
        '--only',
        'webhooks.delivery-signed',
        '--seed',
        '5',
        ...REFERENCE_TIMING,
      ],
      {
        CONFORMANCE_TOKEN: service!.tokens.consumer,
        CONFORMANCE_FULL_TOKEN: service!.tokens.full,
        CONFORMANCE_ADMIN_TOKEN: service!.tokens.admin,
      },
    );
    const check = result.checks.find((c) => c.id === 'webhooks.delivery-signed')!;
    expect(check.status).toBe('failed');
    expect(check.failure!.message).toMatch(/could not create a token: ".*host must be a public address/);
    expect(check.failure!.message).not.toContain('--receiver-tls');
    const text = await consoleOf(result, { live: false });
    expect(text).toMatch(/host must be a public address: 127\.0\.0\.1 is a loopback address/);
    expect(text).not.toContain('not selected');
  }, 300_000);
});
