// Runs the conformance CLI as a child process, as a user does (exit code, stdout, stderr), and
// reads back its JSON result.

import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '../engine/results/result.ts';

export const CLI = fileURLToPath(new URL('../cli.ts', import.meta.url));
export const MINI_SPEC = fileURLToPath(new URL('./fixtures/mini-openapi.json', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  reportDir: string;
  result(): Promise<RunResult & { integrity: { value: string } }>;
}

/** The environment of the child, without the test runner's own VITEST_*, CONFORMANCE_* and GITHUB_* variables. */
function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('VITEST') && !k.startsWith('CONFORMANCE_') && !k.startsWith('GITHUB_') && k !== 'NODE_ENV')
      env[k] = v;
  return { ...env, NO_COLOR: '1', ...extra };
}

export async function runCli(
  args: readonly string[],
  options: { env?: Record<string, string | undefined>; command?: readonly string[]; timeoutMs?: number } = {},
): Promise<CliRun> {
  const reportDir = await mkdtemp(join(tmpdir(), 'ctf-report-'));
  const command = options.command ?? [process.execPath, CLI];
  const child = spawn(command[0]!, [...command.slice(1), '--report-dir', reportDir, ...args], {
    env: childEnv(options.env ?? {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  return {
    code,
    stdout,
    stderr,
    reportDir,
    result: async () => JSON.parse(await readFile(join(reportDir, 'result.json'), 'utf8')),
  };
}
