// Starts the reference service (`npm start` = reference-impl/src/main.ts) as a child process for
// the conformance harness tests, and reads its URL, demo tokens and demo users from the summary it
// prints once. The service stays a black box: of reference-impl/ only the names of its
// configuration variables are imported, to keep the developer's shell out of its environment.
//
// Settings for a quick certification run: embedded storage in memory, a short webhook retry
// schedule and timeout, http: callbacks to 127.0.0.1 (the suite's receiver) allowed, demo data
// seeded so that tokens exist, a small asset limit so the oversize upload stays small.

import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { VARIABLES } from '../../../reference-impl/src/config.ts';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The service's environment in the harness (webhook timings match REFERENCE_TIMING below). */
export const REFERENCE_ENV: Readonly<Record<string, string>> = {
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: ':memory:',
  SEED_DEMO_DATA: 'true',
  ALLOW_INSECURE_CALLBACKS: '1',
  // Three retries: 200 ms after the first failure, 400 ms after the second, the last 3 s after
  // the first attempt. The interface's schedule is minutes to hours apart.
  WEBHOOK_RETRY_SCHEDULE: '200ms,400ms,3s',
  WEBHOOK_TIMEOUT: '1s',
  ASSET_MAX_BYTES: '1MiB',
  LOG_LEVEL: 'warn',
};

/** Suite options that fit REFERENCE_ENV: waits sized to the short schedule, an upload above 1 MiB. */
export const REFERENCE_TIMING: readonly string[] = [
  '--webhook-wait',
  '8000', // the last retry comes 3 s after the first attempt
  '--webhook-quiet',
  '1500', // a wrong retry would come after 200 ms
  '--webhook-slow',
  '1500', // beyond WEBHOOK_TIMEOUT=1s
  '--asset-oversize',
  String(1024 * 1024 + 64 * 1024),
];

export interface DemoToken {
  label: string;
  token: string;
  roles: string;
  scope: string;
}

export interface DemoUser {
  username: string;
  password: string;
  roles: string;
  account: string;
}

export interface ReferenceService {
  /** Base URL ending in /api. */
  readonly baseUrl: string;
  readonly pid: number;
  readonly tokens: { consumer: string; full: string; admin: string; superAdmin: string };
  /** The ROLE_EXTERNAL_USER demo user of the amsterdam account (sessions). */
  readonly user: DemoUser;
  readonly accountId: string;
  readonly all: { tokens: DemoToken[]; users: DemoUser[] };
  /** Everything the service printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

const TOKEN_LINE = /^\s+(.+?)\s{2,}(\S+)\s+\((.+?); (.+)\)\s*$/;
const USER_LINE = /^\s+(\S+@\S+)\s+(\S+)\s+\((.+), account (\S+)\)\s*$/;

/** Reads the service's start-up summary (see reference-impl/src/main.ts `summary`). */
export function parseSummary(text: string): { baseUrl?: string; tokens: DemoToken[]; users: DemoUser[] } {
  const baseUrl = /^\s+API:\s+(\S+)\s*$/m.exec(text)?.[1];
  const tokens: DemoToken[] = [];
  const users: DemoUser[] = [];
  let section: 'none' | 'tokens' | 'users' = 'none';
  for (const line of text.split('\n')) {
    if (line.startsWith('Demo data seeded')) section = 'tokens';
    else if (line.startsWith('Demo users')) section = 'users';
    else if (!line.startsWith(' ')) section = 'none';
    else if (section === 'tokens') {
      const m = TOKEN_LINE.exec(line);
      if (m && !/BOOTSTRAP/.test(line)) tokens.push({ label: m[1]!, token: m[2]!, roles: m[3]!, scope: m[4]! });
    } else if (section === 'users') {
      const m = USER_LINE.exec(line);
      if (m) users.push({ username: m[1]!, password: m[2]!, roles: m[3]!, account: m[4]! });
    }
  }
  return { baseUrl, tokens, users };
}

function pick(tokens: readonly DemoToken[], label: RegExp, what: string): string {
  const found = tokens.find((t) => label.test(t.label));
  if (!found)
    throw new Error(
      `the reference service printed no ${what} token (labels: ${tokens.map((t) => t.label).join(', ') || 'none'})`,
    );
  return found.token;
}

const running = new Set<ChildProcessByStdio<null, Readable, Readable>>();
// Whatever happens to the test run, no service outlives it.
process.once('exit', () => {
  for (const child of running) if (child.exitCode === null && child.pid) child.kill('SIGKILL');
});

export async function startReferenceService(
  options: { env?: Record<string, string>; timeoutMs?: number; command?: readonly string[]; cwd?: string } = {},
): Promise<ReferenceService> {
  // `env` may set PORT and PUBLIC_BASE_URL, e.g. to put the service behind a proxy of known address.
  // `command` runs another build of it, e.g. the installed `content-service` (scripts/release-check.ts).
  const timeoutMs = options.timeoutMs ?? 90_000;
  const [file, ...args] = options.command ?? [process.execPath, 'reference-impl/src/main.ts'];
  const child = spawn(file!, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...cleanEnv(), ...REFERENCE_ENV, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };

  try {
    const deadline = Date.now() + timeoutMs;
    // The summary ends with the "Try:" curl line.
    while (!/^Try:\n.*curl .*$/m.test(out)) {
      if (child.exitCode !== null)
        throw new Error(`the reference service exited with ${child.exitCode} before it was ready:\n${out}`);
      if (Date.now() > deadline)
        throw new Error(`the reference service printed no summary within ${timeoutMs} ms:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const summary = parseSummary(out);
    if (!summary.baseUrl) throw new Error(`no API URL in the reference service's summary:\n${out}`);
    const user = summary.users.find((u) => u.account === 'amsterdam' && u.roles === 'ROLE_EXTERNAL_USER');
    if (!user) throw new Error(`the reference service printed no demo user of account amsterdam:\n${out}`);
    return {
      baseUrl: summary.baseUrl,
      pid: child.pid!,
      tokens: {
        consumer: pick(summary.tokens, /^live consumer$/, 'live consumer'),
        // The suite writes with its full token: the demo token that sees every status and writes (DEC-AUTH-020).
        full: pick(summary.tokens, /^editor\b/, 'editor (full)'),
        admin: pick(summary.tokens, /^admin of amsterdam$/, 'amsterdam admin'),
        superAdmin: pick(summary.tokens, /^super admin$/, 'super admin'),
      },
      user,
      accountId: 'amsterdam',
      all: { tokens: summary.tokens, users: summary.users },
      output: () => out,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

const SERVICE_VARIABLES = new Set(VARIABLES.map((v) => v.name));

/**
 * `env` (this process's by default) without the test runner's, the suite's and the service's own
 * variables: whatever the developer's shell holds, the service runs on embedded storage with
 * in-memory limits and its own defaults.
 */
export function cleanEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env))
    if (
      !k.startsWith('VITEST') &&
      !k.startsWith('CONFORMANCE_') &&
      k !== 'NODE_ENV' &&
      k !== 'TEST' &&
      !SERVICE_VARIABLES.has(k)
    )
      clean[k] = v;
  return clean;
}
