// Starts Prism 5.16 on the bundled spec (paths without the /api prefix). The `content-mock`
// command (cli.ts) runs it on an internal port behind its front door (front.ts); the tests and
// the benchmarks start it directly.
//
// Prism is started with SCARF_ANALYTICS=false (its install analytics), never with `-m`
// (multiprocess crashes at start in 5.15+) and never with NODE_ENV=production (which turns -m on).
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const mockDir = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(mockDir, '..');
// Resolved like an import: the repository's node_modules, or wherever the package's install put it.
const PRISM = createRequire(import.meta.url).resolve('@stoplight/prism-cli');
export const MOCK_SPEC = 'generated/openapi.yaml';
const FORBIDDEN = new Set(['-m', '--multiprocess']);

export type PrismOptions = {
  port: number;
  host?: string;
  /** Extra Prism options, e.g. ['--errors'], ['-d'], ['-v', 'warn']. */
  args?: readonly string[];
  /** Print Prism's output (default: collect it only). */
  echo?: boolean;
};

export type RunningPrism = {
  url: string;
  child: ChildProcess;
  /** Everything Prism printed so far. */
  output: () => string;
  /** Milliseconds from spawn until Prism answered its first HTTP request. */
  firstAnswerMs: number;
  stop: () => Promise<void>;
};

export function prismArgs(options: PrismOptions): string[] {
  const extra = [...(options.args ?? [])];
  const bad = extra.filter((a) => FORBIDDEN.has(a) || a.startsWith('--multiprocess'));
  if (bad.length > 0) throw new Error(`refusing ${bad.join(' ')}: Prism 5.16 crashes at start in multiprocess mode`);
  return ['mock', MOCK_SPEC, '-p', String(options.port), '-h', options.host ?? '127.0.0.1', ...extra];
}

export function prismEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SCARF_ANALYTICS: 'false' };
  if (env.NODE_ENV === 'production') delete env.NODE_ENV; // production turns on the crashing -m
  return env;
}

/** Polls until the server answers any HTTP request, or throws after `timeoutMs`. */
async function waitForFirstAnswer(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Prism exited with ${child.exitCode} before answering:\n${output()}`);
    try {
      await fetch(`${url}/actuator/health`, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`Prism did not answer within ${timeoutMs} ms:\n${output()}`);
}

/** Starts Prism on the bundled spec and resolves once it answers HTTP. */
export async function startPrism(options: PrismOptions): Promise<RunningPrism> {
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host}:${options.port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [PRISM, ...prismArgs(options)], {
    cwd: repoRoot,
    env: prismEnv(),
    stdio: ['ignore', options.echo ? 'inherit' : 'pipe', options.echo ? 'inherit' : 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const output = (): string => log;
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  try {
    await waitForFirstAnswer(url, child, output, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, child, output, firstAnswerMs: Math.round(performance.now() - started), stop };
}
