// Runs the command-line tools this repository pins (redocly, openapi-typescript, prism) with the
// same Node that runs the caller (Node 24 from the `node@24` devDependency), never a PATH lookup.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const bins = {
  redocly: path.join(repoRoot, 'node_modules/@redocly/cli/bin/cli.js'),
  openapiTypescript: path.join(repoRoot, 'node_modules/openapi-typescript/bin/cli.js'),
  prism: path.join(repoRoot, 'node_modules/@stoplight/prism-cli/dist/index.js'),
} as const;

export type RunResult = { code: number; stdout: string; stderr: string };

export type RunOptions = {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Print the tool's output as it arrives instead of only collecting it. */
  echo?: boolean;
};

/** Runs `node <script> ...args` and collects its output; never throws on a non-zero exit. */
export function runNodeScript(script: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: options.cwd ?? repoRoot,
      env: {
        ...process.env,
        NO_COLOR: '1',
        FORCE_COLOR: '0',
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (options.echo) process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (options.echo) process.stderr.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Like runNodeScript, but throws with the tool's output when it exits non-zero. */
export async function mustRun(script: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const result = await runNodeScript(script, args, options);
  if (result.code !== 0) {
    const name = Object.entries(bins).find(([, file]) => file === script)?.[0] ?? path.basename(script);
    const tail = (text: string): string => (text.length > 4000 ? `…${text.slice(-4000)}` : text);
    throw new Error(
      `${name} ${args.join(' ')} exited with ${result.code}\n${tail(result.stdout)}\n${tail(result.stderr)}`,
    );
  }
  return result;
}
