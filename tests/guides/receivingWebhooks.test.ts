// docs/guides/receiving-webhooks.md: its commands run as written, in order: the guide's receiver
// starts, `content-webhooks trigger` reaches it directly and through `listen`, and
// `content-conformance receiver` certifies it; the sandbox in its webhook dev mode sends a real
// delivery to `listen`. Only the ports change (3000, 4242 and 8080 become free ports, since the
// machine is shared), `@content-service/client` points at the sources, and
// `npx @content-service/reference` runs the repository's service (the package is not installed here).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGuide, markedBlock, repoRoot } from './markdown.ts';

const guide = loadGuide('receiving-webhooks.md');
const scratch = fs.mkdtempSync(path.join(import.meta.dirname, '.tmp-receiving-'));
const children: ChildProcess[] = [];
let ports: Record<string, string> = {};

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

/** The block's command with the guide's ports replaced by this run's. */
function command(marker: string): string {
  const block = markedBlock(guide, `guide-test:${marker}`);
  expect(block.lang).toBe('sh');
  return block.content.replace(/\b(3000|4242|8080)\b/g, (p) => ports[p]!);
}

// Node 24 and the repository's bins first, as after `npm install` in a project of one's own.
const env = { ...process.env, PATH: `${path.join(repoRoot, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}` };

function background(
  line: string,
  extraEnv: Record<string, string> = {},
): { child: ChildProcess; output: () => string } {
  // Its own process group: npx runs the bin as a grandchild, which must stop with it.
  const child = spawn('sh', ['-c', `exec env ${line}`], {
    cwd: scratch,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c) => (output += String(c)));
  child.stderr!.on('data', (c) => (output += String(c)));
  return { child, output: () => output };
}

function run(line: string, extraEnv: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', line], {
      cwd: scratch,
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += String(c)));
    child.stderr.on('data', (c) => (output += String(c)));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

let receiver: ReturnType<typeof background>;

async function waitFor(output: () => string, text: string | RegExp, ms: number): Promise<void> {
  for (let waited = 0; !(typeof text === 'string' ? output().includes(text) : text.test(output())); waited += 100) {
    if (waited > ms) throw new Error(`waited ${ms} ms for ${String(text)} in:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  ports = { '3000': String(await freePort()), '4242': String(await freePort()), '8080': String(await freePort()) };
  const program = markedBlock(guide, 'guide-test:receiver');
  expect(program.lang).toBe('ts');
  const client = path.join(repoRoot, 'client/index.ts');
  fs.writeFileSync(
    path.join(scratch, 'receiver.ts'),
    program.content.replace("'@content-service/client'", `'${client}'`),
  );
  receiver = background(`PORT=${ports['3000']} ${command('start-receiver')}`);
  await waitFor(receiver.output, 'receiver ready', 30_000);
}, 30_000);

/** Stops a background command and everything it started; resolves once its group has gone. */
async function stop(child: ChildProcess): Promise<void> {
  const exited = child.exitCode !== null || child.signalCode !== null;
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    return; // the group has gone already
  }
  if (!exited) await new Promise((r) => child.once('exit', r));
  for (let tries = 0; tries < 100; tries++) {
    try {
      process.kill(-child.pid!, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

afterAll(async () => {
  await Promise.all(children.map(stop));
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('docs/guides/receiving-webhooks.md', () => {
  it('when trigger sends an EventUpdated to the guide receiver, then it is acknowledged with 200 and processed', async () => {
    const { code, output } = await run(command('trigger'));
    expect(output).toMatch(/EventUpdated delivery [0-9a-f-]{36} \(1 item\) → .*: HTTP 200/);
    expect(code).toBe(0);
    await expect
      .poll(() => receiver.output())
      .toMatch(/[0-9a-f-]{36} UPDATED https:\/\/content\.example\.com\/api\/events\//);
  }, 150_000);

  it('when listen forwards a triggered VenueDeleted, then listen verifies it and the receiver answers through it', async () => {
    const listener = background(command('listen'));
    await waitFor(listener.output, 'Listening for webhook deliveries', 90_000);
    const { code, output } = await run(command('via-listen'));
    expect(output).toContain('HTTP 200');
    expect(code).toBe(0);
    expect(listener.output()).toMatch(/signature ok · new/);
    expect(listener.output()).toMatch(/VenueDeleted\s+trc-/);
    expect(listener.output()).toContain(`forwarded to http://127.0.0.1:${ports['3000']}/hooks/content: HTTP 200`);
    await stop(listener.child); // frees the port for the sandbox's listen below
  }, 150_000);

  it('when the certification command runs against the guide receiver, then it passes and writes its reports', async () => {
    const { code, output } = await run(command('certify'));
    expect(output).toContain('receiver.rejects-reserialised-signature');
    expect(code).toBe(0);
    for (const file of ['junit.xml', 'result.json', 'report.html'])
      expect(fs.existsSync(path.join(scratch, 'reports/receiver', file))).toBe(true);
  }, 150_000);

  it('when the sandbox runs in its webhook dev mode, then a token pointed at listen gets a real signed delivery', async () => {
    const start = command('sandbox-start').replace(
      'npx @content-service/reference',
      `node ${path.join(repoRoot, 'reference-impl/src/main.ts')}`,
    );
    // The quick start's own settings, made explicit: its port, embedded storage, demo data.
    const sandbox = background(start, {
      PORT: ports['8080']!,
      HOST: '127.0.0.1',
      DATA_DIR: ':memory:',
      SEED_DEMO_DATA: 'true',
      LOG_LEVEL: 'warn',
    });
    await waitFor(sandbox.output, /admin of amsterdam\s+cst_/, 150_000);
    const adminToken = /admin of amsterdam\s+(cst_\S+)/.exec(sandbox.output())![1]!;
    const created = await run(command('sandbox-token'), { ADMIN_TOKEN: adminToken });
    expect(created.code, created.output).toBe(0);
    const token = JSON.parse(fs.readFileSync(path.join(scratch, 'dev-token.json'), 'utf8')) as {
      token: string;
      signingSecret: string;
    };
    const shell = { TOKEN: token.token, SIGNING_SECRET: token.signingSecret };
    const listener = background(command('sandbox-listen'), shell);
    await waitFor(listener.output, 'Listening for webhook deliveries', 90_000);
    const change = await run(command('sandbox-change'), shell);
    expect(change.output.trim()).toBe('204');
    await waitFor(listener.output, /EventDeleted\s+\S+\s+http:\/\/127\.0\.0\.1:\d+\/api\/events\//, 60_000);
    expect(listener.output()).toMatch(/signature ok · new/);
    const announced = await run(command('sandbox-trigger'), shell);
    expect(announced.code, announced.output).toBe(0);
    expect(announced.output).toMatch(/LocationUpdated delivery [0-9a-f-]{36} \(1 item\) → .*: HTTP 200/);
    const uris = [
      ...announced.output.matchAll(/UPDATED LOCATION \S+ (http:\/\/127\.0\.0\.1:\d+\/api\/locations\/\S+)/g),
    ];
    expect(uris).toHaveLength(1);
    for (const [, uri] of uris) {
      const read = await fetch(uri!, { headers: { authorization: `Bearer ${token.token}` } });
      expect(read.status, uri).toBe(200); // real items, which the token reads
    }
    await waitFor(listener.output, /LocationUpdated\s+\S+\s+http:\/\/127\.0\.0\.1:\d+\/api\/locations\//, 30_000);
  }, 400_000);
});
