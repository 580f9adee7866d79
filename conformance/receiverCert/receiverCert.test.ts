import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookReceiver } from '../../client/webhooks/middleware.ts';
import { verifyResultObject } from '../reporters/integrity.ts';
import { main } from '../cli.ts';
import type { Fault, RunningReceiver } from './selftest/faultyReceivers.ts';
import { startFaultyReceiver } from './selftest/faultyReceivers.ts';
import { certifyReceiver } from './run.ts';
import type { RunResult } from '../engine/results/result.ts';

const secret = `whsec-${Math.random().toString(36).slice(2)}`;
const running: RunningReceiver[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

async function middlewareReceiver(): Promise<RunningReceiver> {
  const app = express();
  const receiver = webhookReceiver({ secret, onItems: () => {}, logger: { error() {}, warn() {} } });
  app.post('/webhooks', receiver);
  const server = createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const running = {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
  return running;
}

async function certify(receiver: RunningReceiver, ackTimeoutMs = 2_000): Promise<RunResult> {
  running.push(receiver);
  return certifyReceiver({ url: receiver.url, secret, ackTimeoutMs });
}

const failedChecks = (r: RunResult) =>
  r.checks.filter((c) => c.status === 'failed').map((c) => [c.id, c.failure!.requirements.join(',')]);
const verdictOf = (r: RunResult, id: string) => r.requirements.find((q) => q.id === id)?.verdict;

describe('content-conformance receiver', () => {
  it("when the receiver is the client's webhookReceiver middleware, then every check passes", async () => {
    const result = await certify(await middlewareReceiver());
    expect(failedChecks(result)).toEqual([]);
    expect(result.verdict).toBe('pass');
    expect(result.exitCode).toBe(0);
    expect(verdictOf(result, 'HOOK-023')).toBe('pass');
    expect(verdictOf(result, 'HOOK-016')).toBe('not-verifiable');
    // Only receiver obligations are judged.
    expect(result.requirements.every((q) => q.subject === 'receiver')).toBe(true);
  });

  const cases: [Fault, string, string, string][] = [
    ['noVerify', 'receiver.rejects-tampered-body', 'HOOK-023', 'fail'],
    ['verifyReserialised', 'receiver.rejects-reserialised-signature', 'HOOK-015', 'fail'],
    ['noTimestampWindow', 'receiver.rejects-stale-timestamp', 'HOOK-014', 'fail'],
    ['serverErrorOnForgery', 'receiver.rejects-tampered-body', 'HOOK-024', 'warn'],
    ['refusesDuplicate', 'receiver.acknowledges-duplicate', 'HOOK-021', 'fail'],
    ['slow', 'receiver.accepts-batched-event-types', 'HOOK-017', 'fail'],
  ];
  it.each(cases)('when the receiver has fault %s, then %s fails on %s', async (fault, check, requirement, verdict) => {
    // The slow receiver works 1.5 s against a 1 s limit: the same rule as 6 s against 5 s, faster.
    const receiver = await startFaultyReceiver(fault, { secret, delayMs: 1_500 });
    const result = await certify(receiver, fault === 'slow' ? 1_000 : 2_000);
    const failed = result.checks.find((c) => c.id === check)!;
    expect(failed.status).toBe('failed');
    expect(failed.failure!.requirements).toEqual([requirement]);
    expect(verdictOf(result, requirement)).toBe(verdict);
    // A MUST failure fails the run; the 5xx advice only warns.
    expect(result.exitCode).toBe(verdict === 'fail' ? 1 : 0);
    if (fault === 'serverErrorOnForgery') {
      expect(failed.failure!.message).toContain('retried for 24 hours');
      expect(verdictOf(result, 'HOOK-023')).toBe('pass');
    }
  });
});

describe('content-conformance receiver (command line)', () => {
  const capture = () => {
    let text = '';
    return {
      stream: new Writable({ write: (c, _e, cb) => ((text += String(c)), cb()) }),
      text: () => text,
    };
  };

  it('when run against a receiver, then it writes the three reports with a valid integrity hash and exits 0', async () => {
    const receiver = await middlewareReceiver();
    running.push(receiver);
    const dir = await mkdtemp(join(tmpdir(), 'receiver-cert-'));
    try {
      const out = capture();
      const saved = process.stdout.write.bind(process.stdout);
      process.stdout.write = ((chunk: string) => out.stream.write(chunk)) as typeof process.stdout.write;
      let code: number;
      try {
        code = await main(['receiver', '--url', receiver.url, '--secret', secret, '--report-dir', dir, '--no-color']);
      } finally {
        process.stdout.write = saved;
      }
      expect(code).toBe(0);
      expect(out.text()).toContain('receiver.rejects-uppercase-hex');
      // Nothing in a receiver run is random: no seed to replay with (it has no --seed).
      expect(out.text()).not.toMatch(/seed/i);
      const json = JSON.parse(await readFile(join(dir, 'result.json'), 'utf8'));
      expect(verifyResultObject(json).ok).toBe(true);
      expect(json.profile).toBe('receiver');
      expect(json.seed).toBeUndefined();
      expect(await readFile(join(dir, 'junit.xml'), 'utf8')).toContain('receiver.accepts-largest-batch');
      expect(await readFile(join(dir, 'report.html'), 'utf8')).toContain('HOOK-023');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('when --url is missing, then it exits 2 and says what is required', async () => {
    const err = capture();
    const saved = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => err.stream.write(chunk)) as typeof process.stderr.write;
    try {
      expect(await main(['receiver', '--secret', 's'])).toBe(2);
    } finally {
      process.stderr.write = saved;
    }
    expect(err.text()).toContain('--url is required');
  });
});
