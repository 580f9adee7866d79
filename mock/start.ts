// `npm run mock [-- prism options]`: serves the bundled spec with Prism 5.16 on
// http://127.0.0.1:${PORT:-4010} (paths without the /api prefix).
//
//   npm run mock                 static mode: answers with the spec's examples
//   npm run mock -- --errors     an example that breaks its own schema becomes a 500
//   npm run mock -- -d           dynamic mode: bodies generated from the schemas
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

/** The `content-mock` command (`npm run mock`): Prism on PORT (4010) until Ctrl+C. */
export async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 4010);
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    throw new Error(`PORT must be a TCP port number (received: ${process.env.PORT})`);
  const prism = await startPrism({ port, args: process.argv.slice(2), echo: true });
  console.log(
    `\nMock ready at ${prism.url} after ${prism.firstAnswerMs} ms (paths without /api; see mock/README.md). Ctrl+C stops it.`,
  );
  const shutdown = (): void => {
    void prism.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  prism.child.on('exit', (code) => process.exit(code ?? 0));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
