import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { VARIABLES } from './config.ts';

// `npm start` as a user runs it: a child process, its printed URL and token, SIGTERM.

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
// `npm start` runs this first (package.json prestart): it builds the docs when missing or stale.
const PRESTART = fileURLToPath(new URL('../../scripts/ensure-docs.ts', import.meta.url));
const DOCS_PAGE = fileURLToPath(new URL('../../docs/build/index.html', import.meta.url));
const START_TIMEOUT_MS = 120_000; // PGlite compiles its WebAssembly at start; slow on a busy machine

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

function start(env: Record<string, string>, args: string[] = []): Started {
  // None of the service's variables leaks in from the shell that runs the tests.
  const base = { ...process.env };
  for (const { name } of VARIABLES) delete base[name];
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { ...base, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let text = '';
  child.stdout!.on('data', (chunk) => {
    text += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    text += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => text, exited };
}

async function waitFor(started: Started, pattern: RegExp): Promise<RegExpExecArray> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const match = pattern.exec(started.output());
    if (match !== null) return match;
    if (started.child.exitCode !== null)
      throw new Error(`exited with ${started.child.exitCode} before printing ${pattern}:\n${started.output()}`);
    if (Date.now() > deadline)
      throw new Error(`nothing matching ${pattern} within ${START_TIMEOUT_MS} ms:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs npm start's prestart as npm would, in a process of its own; resolves with its output. */
function prestart(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [PRESTART], { timeout: START_TIMEOUT_MS }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stdout}${stderr}`));
      else resolve(stdout + stderr);
    });
  });
}

/** The pino JSON lines of the output, parsed. */
function logLines(output: string): Array<{ level: number; msg: string }> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
}

const INSECURE_WARNING = 'ALLOW_INSECURE_CALLBACKS is on: webhooks may target http: and private addresses';
const WARN = 40; // pino's level number for warn

async function stop(started: Started): Promise<{ code: number | null; ms: number }> {
  const at = Date.now();
  started.child.kill('SIGTERM');
  const code = await started.exited;
  return { code, ms: Date.now() - at };
}

describe('npm start', () => {
  it('when started with --help, then it lists every variable and exits 0', async () => {
    const started = start({}, ['--help']);
    expect(await started.exited).toBe(0);
    for (const { name } of VARIABLES) expect(started.output()).toMatch(new RegExp(`^  ${name} `, 'm'));
    // Run from the repository, it names the repository's command (installed: content-service).
    expect(started.output()).toMatch(/^Usage: npm start \[-- --help\]/m);
  });

  it('when a variable is invalid, then it says which and exits 2', async () => {
    const started = start({ PORT: 'eighty' });
    expect(await started.exited).toBe(2);
    expect(started.output()).toContain('PORT');
    expect(started.output()).toContain('See: npm start -- --help');
  });

  it(
    'when started after its prestart on an empty in-memory store, then it prints the URL, the docs URL and demo tokens, serves the docs and the demo data and stops on SIGTERM with 0 [VER-001] [AUTH-005]',
    async () => {
      const prestartOutput = await prestart();
      expect(existsSync(DOCS_PAGE), prestartOutput).toBe(true);
      const started = start({ DATA_DIR: ':memory:' });
      const [, baseUrl] = await waitFor(started, /API:\s+(http:\/\/127\.0\.0\.1:\d+\/api)\n/);
      const [, docsUrl] = await waitFor(started, /Docs:\s+(\S+)\n/);
      expect(docsUrl).toBe(`${new URL(baseUrl!).origin}/docs/`);
      expect(started.output()).not.toContain('not built');
      const docs = await fetch(docsUrl!);
      expect(docs.status).toBe(200);
      expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await docs.text()).toContain('<title>Content Service API</title>');
      const [, token] = await waitFor(started, /live consumer\s+(cst_[A-Za-z0-9_-]{43})/);
      const events = await fetch(`${baseUrl}/events`, { headers: { authorization: `Bearer ${token}` } });
      expect(events.status).toBe(200);
      const items = (await events.json()) as Array<{ wfstatus: string; entitytype: string }>;
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((i) => i.wfstatus === 'approved' && i.entitytype === 'EVENEMENT')).toBe(true);
      // Logs never carry a token (only the one-time summary does).
      const lines = started
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'));
      expect(lines.some((line) => line.includes('cst_'))).toBe(false);
      expect(started.output()).not.toContain('ALLOW_INSECURE_CALLBACKS');
      const { code, ms } = await stop(started);
      expect(code).toBe(0);
      expect(ms).toBeLessThan(10_000);
    },
    3 * START_TIMEOUT_MS,
  );

  it(
    'when started with ALLOW_INSECURE_CALLBACKS=1, then the startup log warns that webhooks may target http: and private addresses, before the service listens [DEC-HOOK-002]',
    async () => {
      const started = start({ DATA_DIR: ':memory:', SEED_DEMO_DATA: 'false', ALLOW_INSECURE_CALLBACKS: '1' });
      await waitFor(started, /API:\s+http:\/\/127\.0\.0\.1:\d+\/api\n/);
      const warning = logLines(started.output()).find((line) => line.msg === INSECURE_WARNING);
      expect(warning, started.output()).toMatchObject({ level: WARN, msg: INSECURE_WARNING });
      expect(started.output().indexOf(INSECURE_WARNING)).toBeLessThan(started.output().indexOf('API:'));
      expect((await stop(started)).code).toBe(0);
    },
    2 * START_TIMEOUT_MS,
  );

  it(
    'when restarted on a store with data, then the demo tokens are printed with new values and BOOTSTRAP_ADMIN_TOKEN works [DEC-AUTH-006]',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'content-service-'));
      const liveToken = (output: string) => /live consumer\s+(cst_[A-Za-z0-9_-]{43})/.exec(output)?.[1];
      try {
        const first = start({ DATA_DIR: dataDir });
        await waitFor(first, /Try:/);
        const oldToken = liveToken(first.output());
        expect((await stop(first)).code).toBe(0);

        const bootstrap = `bootstrap-${'x'.repeat(32)}`;
        const second = start({ DATA_DIR: dataDir, BOOTSTRAP_ADMIN_TOKEN: bootstrap });
        const [, baseUrl] = await waitFor(second, /API:\s+(http:\/\/127\.0\.0\.1:\d+\/api)\n/);
        await waitFor(second, /Try:/);
        expect(second.output()).toContain('new values for this run');
        expect(second.output()).not.toContain(bootstrap);
        const newToken = liveToken(second.output());
        expect(newToken).toBeDefined();
        expect(newToken).not.toBe(oldToken);
        const get = (token: string | undefined, path: string) =>
          fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
        expect((await get(newToken, '/events')).status).toBe(200);
        expect((await get(oldToken, '/events')).status).toBe(401);
        const all = await get(bootstrap, '/events?wfstatus=deleted');
        expect(all.status).toBe(200);
        expect(((await all.json()) as unknown[]).length).toBeGreaterThan(0);
        expect((await stop(second)).code).toBe(0);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    4 * START_TIMEOUT_MS,
  );
});
