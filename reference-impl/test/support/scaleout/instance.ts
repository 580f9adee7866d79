// Reference service instances as real child processes (`node reference-impl/src/main.ts`), the
// way a process manager runs them: configuration in the environment, the bound port read from
// the printed summary, SIGTERM to stop, SIGKILL to crash. Every process a group starts is killed
// when the group closes, and at the latest when the test process exits.

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { VARIABLES } from '../../../src/config.ts';

const MAIN = fileURLToPath(new URL('../../../src/main.ts', import.meta.url));

export interface Instance {
  readonly name: string;
  readonly pid: number;
  /** Ends in `/api`. */
  readonly baseUrl: string;
  /** stdout and stderr so far. */
  output(): string;
  /** The structured log lines so far (pino JSON). */
  logLines(): Array<Record<string, unknown> & { msg?: string }>;
  /** Resolves with the exit code (null when killed by a signal) once the process ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** kill -9: no shutdown hook runs. Resolves when the process is gone. */
  crash(): Promise<void>;
  /** SIGTERM: graceful stop. Resolves with the exit code. */
  stop(): Promise<number | null>;
}

export interface InstanceGroup {
  /** Starts one instance and resolves once it listens (its summary printed the API URL). */
  start(name: string, env: Record<string, string>, options?: { startTimeoutMs?: number }): Promise<Instance>;
  /** SIGKILL to every instance still running; waits for them to end. */
  closeAll(): Promise<void>;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last resort when a test file dies before its afterAll: never leave a service running.
  process.once('exit', () => {
    for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
}

export function createInstanceGroup(baseEnv: Record<string, string> = {}): InstanceGroup {
  installExitHook();
  const mine = new Set<ChildProcess>();

  async function start(
    name: string,
    env: Record<string, string>,
    options: { startTimeoutMs?: number } = {},
  ): Promise<Instance> {
    const inherited = { ...process.env };
    // No value of the shell's (another database or Redis, a port, a secret) reaches an instance.
    for (const { name } of VARIABLES) delete inherited[name];
    const child = spawn(process.execPath, [MAIN], {
      env: { ...inherited, PORT: '0', LOG_LEVEL: 'info', SEED_DEMO_DATA: 'false', ...baseEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    mine.add(child);
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('exit', (code, signal) => {
        running.delete(child);
        mine.delete(child);
        resolve({ code, signal });
      });
    });

    const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
    let baseUrl: string | undefined;
    while (baseUrl === undefined) {
      const match = /API:\s+(http:\/\/\S+\/api)\n/.exec(text);
      if (match !== null) baseUrl = match[1]!;
      else if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`instance ${name} exited (${child.exitCode ?? child.signalCode}) before listening:\n${text}`);
      else if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`instance ${name} did not listen within ${options.startTimeoutMs ?? 60_000} ms:\n${text}`);
      } else await new Promise((resolve) => setTimeout(resolve, 50));
    }

    return {
      name,
      pid: child.pid!,
      baseUrl,
      output: () => text,
      logLines: () =>
        text
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .flatMap((line) => {
            try {
              return [JSON.parse(line) as Record<string, unknown>];
            } catch {
              return [];
            }
          }),
      exited,
      async crash() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      },
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        return (await exited).code;
      },
    };
  }

  return {
    start,
    async closeAll() {
      const ending = [...mine].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      );
      await Promise.all(ending);
    },
  };
}
