// The `content-mock` command as an integrator runs it: its own options, the /api base URL (and the
// paths without it), the size rejection naming the size asked for, and a clean stop.
import { spawn, execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMockArgs, UsageError } from './cli.ts';
import { consistentRejection, prismPath } from './front.ts';

const exec = promisify(execFile);
const CLI = new URL('./cli.ts', import.meta.url).pathname;
const AUTH = { Authorization: 'Bearer mock-test-token' };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('content-mock options', () => {
  it('when --port, --host, -d, --errors and Prism options are given, then each is read', () => {
    expect(parseMockArgs(['--port', '19323', '--host', '0.0.0.0', '-d', '--errors', '--', '-v', 'debug'], {})).toEqual({
      kind: 'run',
      port: 19323,
      host: '0.0.0.0',
      prismArgs: ['-d', '--errors', '-v', 'debug'],
    });
    expect(parseMockArgs([], { PORT: '4020' })).toMatchObject({ port: 4020, host: '127.0.0.1', prismArgs: [] });
    expect(parseMockArgs(['-p', '4030'], { PORT: '4020' })).toMatchObject({ port: 4030 });
  });

  it('when an option is unknown or a port is no port, then a UsageError says which', () => {
    expect(() => parseMockArgs(['--bogus'], {})).toThrow(UsageError);
    expect(() => parseMockArgs(['--port', '70000'], {})).toThrow(/--port must be a TCP port number.*received: 70000/);
    expect(() => parseMockArgs(['--host', 'my host'], {})).toThrow(/--host must be an IP address/);
  });

  it('when --help or --version is run, then it names content-mock and exits 0 without a stack', async () => {
    const help = await exec(process.execPath, [CLI, '--help']);
    expect(help.stdout).toMatch(/^Usage: content-mock \[options\]/);
    expect(help.stdout).toContain('--port');
    const version = await exec(process.execPath, [CLI, '--version']);
    expect(version.stdout).toMatch(/^content-mock \d+\.\d+\.\d+ \(Prism 5\.16\.0\)\n$/);
    expect(version.stderr).toBe('');
  });

  it('when the port is bad, then it exits 2 naming the value', async () => {
    const failed = await exec(process.execPath, [CLI, '--port', 'abc']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain('received: abc');
  });
});

describe('the front door', () => {
  it('when a path is under /api or not, then Prism gets the spec path', () => {
    expect(prismPath('/api/events?size=1')).toBe('/events?size=1');
    expect(prismPath('/api')).toBe('/');
    expect(prismPath('/api?x=1')).toBe('/?x=1');
    expect(prismPath('/events')).toBe('/events');
    expect(prismPath('/apis')).toBe('/apis');
  });

  const sizeCap = { status: 400, error: 'Bad Request', message: 'size must not exceed 2000 (requested: 5000)' };
  it('when the size was refused, then the rejection names the size asked for', () => {
    const violations = [{ location: ['request', 'query', 'size'], code: 'maximum', message: 'must be <= 2000' }];
    expect(consistentRejection(sizeCap, violations, new URLSearchParams('size=2001'))).toEqual({
      ...sizeCap,
      message: 'size must not exceed 2000 (requested: 2001)',
    });
  });

  it('when something else was refused, then the answer is the general error shape with what Prism found', () => {
    const violations = [{ location: ['request', 'query', 'sortfield'], code: 'enum', message: 'sortfield is unknown' }];
    expect(consistentRejection(sizeCap, violations, new URLSearchParams('sortField=x'))).toEqual({
      status: 400,
      error: 'Bad Request',
      message: 'sortfield is unknown',
      details: [{ pointer: 'query/sortfield', message: 'sortfield is unknown' }],
    });
    const other = { status: 400, error: 'Bad Request', message: 'lastupdated must be an ISO-8601 date' };
    expect(consistentRejection(other, violations, new URLSearchParams())).toBe(other);
  });
});

describe('content-mock --port <n>', () => {
  let base = '';
  let output = '';
  let child: ReturnType<typeof spawn>;

  beforeAll(async () => {
    const port = await freePort();
    child = spawn(process.execPath, [CLI, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    const deadline = Date.now() + 60_000;
    while (!/Mock ready at (\S+)\/api/.test(output)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`content-mock did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    base = /Mock ready at (\S+)\/api/.exec(output)![1]!;
    expect(base).toBe(`http://127.0.0.1:${port}`);
  }, 70_000);

  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  it('when /api/events and /events are asked, then both answer the list', async () => {
    for (const url of [`${base}/api/events`, `${base}/events`]) {
      const res = await fetch(url, { headers: AUTH });
      expect(res.status, url).toBe(200);
      expect(Array.isArray(await res.json())).toBe(true);
    }
  });

  it('when size=2001 is asked, then the size rejection names 2001', async () => {
    const res = await fetch(`${base}/api/locations?size=2001`, { headers: AUTH });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      status: 400,
      error: 'Bad Request',
      message: 'size must not exceed 2000 (requested: 2001)',
    });
  });

  it('when an unknown sortField is asked, then the 400 is not the size rejection', async () => {
    const res = await fetch(`${base}/api/events?sortField=titel`, { headers: AUTH });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string };
    expect(body.message).not.toContain('size must not exceed');
    expect(body.message).toContain('sortfield');
  });

  it('when it gets SIGTERM, then it stops Prism and exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`${base}/api/events`, { headers: AUTH })).rejects.toThrow();
  });
});
