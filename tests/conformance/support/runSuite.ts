// Runs the conformance CLI (conformance/cli.ts) as a child process, the way CI and vendors run
// it, with tokens in the environment, and reads back its JSON result.

import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from '../../../conformance/engine/results/result.ts';
import { cleanEnv, ROOT } from './referenceService.ts';

export interface SuiteRun {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  reportDir: string;
  result(): Promise<RunResult & { integrity: { value: string } }>;
}

export async function runSuite(
  args: readonly string[],
  options: { env: Record<string, string | undefined>; reportDir: string; timeoutMs: number },
): Promise<SuiteRun> {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    ['conformance/cli.ts', '--report-dir', options.reportDir, '--no-color', ...args],
    {
      cwd: ROOT,
      env: { ...cleanEnv(), NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const timer = setTimeout(kill, options.timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  process.off('exit', kill);
  return {
    code,
    stdout,
    stderr,
    wallMs: Date.now() - started,
    reportDir: options.reportDir,
    result: async () => JSON.parse(await readFile(join(options.reportDir, 'result.json'), 'utf8')),
  };
}
