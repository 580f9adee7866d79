// The suite against the Prism mock (`npm run mock` on a free port): the mock must meet every
// checked requirement except those listed, with a reason, in conformance/expected/prism.yaml.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SPEC = `${ROOT}generated/openapi.json`;
const EXPECTED = fileURLToPath(new URL('../expected/prism.yaml', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilUp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the mock exited with ${child.exitCode}`);
    try {
      await fetch(`${url}/actuator/health`, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`the mock did not answer within ${timeoutMs} ms`);
}

describe.skipIf(!existsSync(SPEC) || !existsSync(`${ROOT}mock/start.ts`))('content-conformance against the Prism mock', () => {
  let mock: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // `npm run mock` is `node mock/start.ts`; PORT picks the port.
    mock = spawn(process.execPath, ['mock/start.ts'], { cwd: ROOT, env: { ...process.env, PORT: String(port), SCARF_ANALYTICS: 'false' }, stdio: 'ignore' });
    await waitUntilUp(url, mock, 30_000);
  }, 40_000);

  afterAll(() => {
    mock?.kill('SIGTERM');
  });

  it('when run with the expected-failures file, then it exits 0 and fails exactly the listed requirements', async () => {
    const started = Date.now();
    const run = await runCli(['--base-url', url, '--expected-failures', EXPECTED, '--seed', '3'], { env: { CONFORMANCE_TOKEN: 'any-token' } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const result = await run.result();
    const expected = result.requirements.filter((r) => r.verdict === 'expected-failure').map((r) => r.id).sort();
    expect(expected).toEqual(['AUTH-002', 'ERR-001']);
    expect(result.requirements.filter((r) => r.verdict === 'fail')).toEqual([]);
    expect(result.requirements.find((r) => r.id === 'LIST-001')?.verdict).toBe('pass');
    console.info(`conformance run against Prism: ${Date.now() - started} ms wall time, ${result.checks.length} checks`);
  }, 60_000);
});
