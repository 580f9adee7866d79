// The content-sync command end to end: in-process `main()` against the scripted fake behind
// HTTP, plus the npx shim as a real process. PGlite on disk is used where it is the point (it
// takes seconds to start on a loaded machine); the other tests mirror into memory.
// `--database-url` (PostgreSQL) against the reference service: tests/client/contentSync.test.ts.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, main, type CliIo } from './cli.ts';
import type { RunSummary } from './cli/mirror.ts';
import { createMemoryStore, type MemoryStore } from './sync/memoryStore.ts';
import { importPeer } from './sync/optionalPeer.ts';
import { openSqlStore } from './sync/sqlStore.ts';
import { createFakeContentService, type FakeItem } from './sync/testing/fakeContentService.ts';
import { serveFake, type FakeHttpServer } from './sync/testing/fakeHttpServer.ts';
import type { Collection } from './sync/types.ts';

const TOKEN = 'cst_cli-test';
const service = createFakeContentService();
let server: FakeHttpServer;
const dirs: string[] = [];

beforeAll(async () => {
  server = await serveFake(service, { token: TOKEN });
});
afterAll(async () => {
  await server.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const mirrorDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'content-sync-'));
  dirs.push(dir);
  return join(dir, 'mirror');
};

interface Captured {
  io: CliIo;
  stdout: () => string;
  stderr: () => string;
  interrupt: () => void;
}

function capture(options: { tty?: boolean; store?: MemoryStore | 'pglite' } = {}): Captured {
  const memory = options.store ?? createMemoryStore();
  let out = '';
  let err = '';
  let handler: (() => void) | undefined;
  const c: Captured = {
    io: {
      stdout: { write: (t: string) => ((out += t), true) },
      stderr: { write: (t: string) => ((err += t), true), isTTY: options.tty },
      env: {},
      onInterrupt: (h) => ((handler = h), () => (handler = undefined)),
      openStore: memory === 'pglite' ? undefined : async () => ({ store: memory, close: async () => {} }),
    },
    stdout: () => out,
    stderr: () => err,
    interrupt: () => handler?.(),
  };
  return c;
}

const run = (args: string[], c = capture()) => main(['--base-url', server.baseUrl, '--token', TOKEN, ...args], c.io);
const summaryOf = (c: Captured): RunSummary => JSON.parse(c.stdout().trim().split('\n').at(-1)!) as RunSummary;
const byCollection = (s: RunSummary, collection: Collection) => s.collections.find((x) => x.collection === collection)!;

async function mirrored(out: string, collection: Collection): Promise<Map<string, string | undefined>> {
  const { store, close } = await openSqlStore({ dataDir: out });
  try {
    return new Map(
      await Promise.all(
        (await store.listTrcids(collection)).map(
          async (t) => [t, (await store.getItem(collection, t))?.lastupdated] as const,
        ),
      ),
    );
  } finally {
    await close();
  }
}
const approved = (collection: Collection) =>
  new Map(
    service
      .all(collection)
      .filter((i) => i.wfstatus === 'approved')
      .map((i) => [i.trcid, i.lastupdated]),
  );

describe('content-sync', () => {
  it('when run twice, then the first run backfills into PGlite on disk and the second fetches only the changes, ending in an exact mirror [SYNC-001] [SYNC-003] [SYNC-004]', async () => {
    const events = Array.from({ length: 23 }, (_, i) =>
      service.create('events', { wfstatus: i % 6 === 0 ? 'archived' : 'approved' }),
    );
    for (let i = 0; i < 3; i++) service.create('venues');
    const out = mirrorDir();

    const first = capture({ store: 'pglite' });
    expect(await run(['--out', out, '--size', '5', '--collections', 'events,venues', '--json', '--quiet'], first)).toBe(
      EXIT.ok,
    );
    const s1 = summaryOf(first);
    expect(s1.ok).toBe(true);
    expect(byCollection(s1, 'events')).toMatchObject({
      ok: true,
      previousMark: null,
      upserted: approved('events').size,
      pages: expect.any(Number),
    });
    expect(byCollection(s1, 'venues').upserted).toBe(3);
    expect(first.stderr()).toBe('');
    expect(existsSync(join(out, 'PG_VERSION'))).toBe(true);

    service.update(events[1]!.trcid, { wfstatus: 'deleted' });
    service.update(events[2]!.trcid, { title: 'changed' });
    service.create('events');
    const second = capture({ store: 'pglite' });
    expect(await run(['--out', out, '--size', '5', '--collections', 'events', '--json'], second)).toBe(EXIT.ok);
    const e2 = byCollection(summaryOf(second), 'events');
    expect(e2.previousMark).toBe(byCollection(s1, 'events').mark);
    // The boundary item comes back once (inclusive bound), then the three changes.
    expect(e2).toMatchObject({ fetched: 4, removed: 1, pages: 1 });
    expect(await mirrored(out, 'events')).toEqual(approved('events'));
    // Not a TTY: plain progress lines.
    expect(second.stderr()).toContain(`events: changes since ${e2.previousMark}`);
    expect(second.stderr()).not.toContain('\x1b[');
  }, 180_000);

  it('when the token is refused, then it exits 1, reports the error even with --quiet, and keeps the marks', async () => {
    const store = createMemoryStore();
    await store.putMark('events', '2026-03-01T11:00:00.000001+01:00');
    const c = capture({ store });
    expect(
      await main(['--base-url', server.baseUrl, '--token', 'wrong', '--collections', 'events', '--quiet'], c.io),
    ).toBe(EXIT.syncFailed);
    expect(c.stderr()).toMatch(/events failed: ServiceError: HTTP 401 .*bad token/);
    expect(c.stdout()).toBe('');
    expect(await store.getMark('events')).toBe('2026-03-01T11:00:00.000001+01:00');
  });

  it('when the usage is wrong, then it exits 2 before opening anything', async () => {
    const out = mirrorDir();
    const c = capture();
    expect(await run(['--out', out, '--size', '0'], c)).toBe(EXIT.usage);
    expect(c.stderr()).toMatch(/--size: size must be an integer from 2 to 2000/);
    expect(existsSync(out)).toBe(false);
  });

  it('when the store driver is not installed, then it exits 2 with the npm line that installs it', async () => {
    const c = capture();
    c.io.openStore = async () => {
      // The real failure of openSqlStore without the package: an import of a package not installed.
      await importPeer('@content-service/no-such-driver', 'An embedded store (dataDir)');
      throw new Error('unreachable');
    };
    expect(await run(['--collections', 'events'], c)).toBe(EXIT.usage);
    expect(c.stderr()).toContain(
      'content-sync: --out (an embedded PGlite store) needs the package @content-service/no-such-driver, which is not installed.\nInstall it: npm install @content-service/no-such-driver\n',
    );
  });

  it('when throttled, then the waits are shown and counted in the summary [ERR-006]', async () => {
    service.create('routes');
    server.throttleNext = 1;
    const c = capture();
    expect(await run(['--collections', 'routes'], c)).toBe(EXIT.ok);
    expect(c.stderr()).toContain('routes: waiting 1.0 s (rate-limited 429)');
    expect(c.stdout()).toMatch(/^routes +1 +1 +0 +0 +1 +1 /m);
    expect(c.stdout()).toContain('throttled waits: 1, 1.0 s in total');
  });

  it('when stderr is a terminal, then the progress is redrawn in place', async () => {
    const c = capture({ tty: true });
    expect(await run(['--collections', 'events,locations'], c)).toBe(EXIT.ok);
    expect(c.stderr()).toContain('\x1b[2A'); // back up over the two collection lines
    expect(c.stderr()).toMatch(/✓ events +\d+ fetched · \d+ upserted · \d+ removed · \d+ pages? in /);
    expect(c.stdout()).toMatch(/^synced into PGlite /);
  });

  /** The collection lines a terminal was shown, in order. */
  const shownLines = (text: string) =>
    text
      .replace(/\x1b\[\d+A/g, '')
      .split(/[\r\n]+/)
      .map((l) => l.replace(/^\x1b\[2K/, ''))
      .filter((l) => /^\S (events|locations) /.test(l));

  it('when the service states no item count, then a terminal shows a spinner with items and pages, and no bar, however recent the items', async () => {
    for (let i = 0; i < 17; i++) service.create('events');
    const callsBefore = service.calls.length;
    const c = capture({ tty: true });
    expect(await run(['--collections', 'events', '--size', '5', '--debug'], c)).toBe(EXIT.ok);
    const lines = shownLines(c.stderr());
    const running = lines.filter((l) => !l.startsWith('✓') && / \d+ pages?/.test(l));
    expect(running.length).toBeGreaterThan(0);
    for (const line of running)
      expect(line).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] events +\d+ fetched · \d+ upserted · \d+ removed · \d+ pages?/);
    expect(c.stderr()).not.toMatch(/\[[#-]+\]/);
    expect(c.stderr()).toContain(
      'events: the first page states no item count (x-total-count): counting pages and items',
    );
    // No request but the sync's own pages, in ascending order.
    expect(service.calls.slice(callsBefore).every((x) => x.query.sortOrder === 'ASC')).toBe(true);
  });

  it('when the first page states the item count, then a terminal shows a bar of the items fetched of that count, ending at 100%', async () => {
    for (let i = 0; i < 23; i++) service.create('locations');
    const store = createMemoryStore();
    server.statesTotal = true;
    try {
      const c = capture({ tty: true, store });
      expect(await run(['--collections', 'locations', '--size', '5', '--json', '--debug'], c)).toBe(EXIT.ok);
      const total = service.all('locations').length;
      const bars = shownLines(c.stderr()).flatMap((l) => {
        const m = /^\S locations +\[([#-]{24})\] +(\d+)% {2}(\d+) of (\d+) fetched · .* (\d+) pages?/.exec(l);
        return m
          ? [{ filled: m[1]!.replace(/-/g, '').length, percent: Number(m[2]), fetched: Number(m[3]), of: Number(m[4]) }]
          : [];
      });
      expect(bars.length).toBeGreaterThan(0);
      for (const [i, bar] of bars.entries()) {
        expect(bar.of).toBe(total);
        expect(bar.percent).toBe(Math.floor((bar.fetched / total) * 100));
        expect(bar.filled).toBe(Math.floor((bar.fetched / total) * 24));
        if (i > 0) expect(bar.fetched).toBeGreaterThanOrEqual(bars[i - 1]!.fetched);
      }
      expect(bars.at(-1)).toMatchObject({ percent: 100, fetched: total });
      expect(c.stderr()).toContain(`locations: the first page states ${total} items (x-total-count)`);
      expect(byCollection(summaryOf(c), 'locations')).toMatchObject({ fetched: total });
    } finally {
      server.statesTotal = false;
    }
  });

  it('when stderr is not a terminal, then no bar is drawn, and a stated count shows as "of N"', async () => {
    service.create('venues');
    const c = capture();
    expect(await run(['--collections', 'venues'], c)).toBe(EXIT.ok);
    expect(c.stderr()).not.toMatch(/\[[#-]+\]/);
    server.statesTotal = true;
    try {
      const counted = capture();
      expect(await run(['--collections', 'venues'], counted)).toBe(EXIT.ok);
      expect(counted.stderr()).toMatch(/venues: \d+ of \d+ fetched/);
      expect(counted.stderr()).not.toMatch(/\[[#-]+\]/);
    } finally {
      server.statesTotal = false;
    }
  });

  it('when watching and Ctrl-C comes while waiting for the next run, then it stops at once with exit 0 [SYNC-007]', async () => {
    const c = capture();
    const io: CliIo = {
      ...c.io,
      stderr: { write: (t: string) => (c.io.stderr.write(t), t.includes('next run at') && c.interrupt(), true) },
    };
    const started = Date.now();
    expect(
      await main(
        ['--base-url', server.baseUrl, '--token', TOKEN, '--collections', 'eventgroups', '--watch', '5', '--json'],
        io,
      ),
    ).toBe(EXIT.ok);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(c.stdout().trim().split('\n')).toHaveLength(1);
    expect(c.stderr()).toMatch(/next run at \d\d:\d\d:\d\d \(every 5 min/);
  });

  it('when watching, then after the interval a second run fetches only what changed between the ticks [SYNC-002] [SYNC-007]', async () => {
    const groups = Array.from({ length: 12 }, (_, i) =>
      service.create('eventgroups', { wfstatus: i === 4 ? 'archived' : 'approved' }),
    );
    const store = createMemoryStore();
    const c = capture({ store });
    const start = Date.UTC(2026, 2, 1, 10, 0, 0);
    let now = start;
    const sleeps: number[] = [];
    let added: FakeItem | undefined;
    const io: CliIo = {
      ...c.io,
      clock: () => now,
      sleep: async (ms, signal) => {
        sleeps.push(ms);
        if (sleeps.length === 1) {
          // Between the ticks: one change, one deletion, one new item.
          service.update(groups[2]!.trcid, { title: 'changed between ticks' });
          service.update(groups[3]!.trcid, { wfstatus: 'deleted' });
          added = service.create('eventgroups');
          now += ms;
        } else {
          c.interrupt(); // Ctrl-C during the second wait
        }
        return !signal.aborted;
      },
    };
    expect(
      await main(
        [
          '--base-url',
          server.baseUrl,
          '--token',
          TOKEN,
          '--collections',
          'eventgroups',
          '--size',
          '5',
          '--watch',
          '5',
          '--json',
        ],
        io,
      ),
    ).toBe(EXIT.ok);

    expect(sleeps).toEqual([5 * 60_000, 5 * 60_000]);
    const [first, second] = c
      .stdout()
      .trim()
      .split('\n')
      .map((line) => byCollection(JSON.parse(line) as RunSummary, 'eventgroups'));
    expect(c.stdout().trim().split('\n')).toHaveLength(2);
    expect(first).toMatchObject({ ok: true, previousMark: null, fetched: 12, upserted: 11, removed: 0 });
    // Incremental: from the first run's mark, the boundary item again plus the three changes, one page.
    expect(second).toMatchObject({
      ok: true,
      previousMark: first!.mark,
      fetched: 4,
      upserted: 3,
      removed: 1,
      pages: 1,
    });
    expect(second!.mark).toBe(added!.lastupdated);
    expect(new Map(store.snapshot('eventgroups'))).toEqual(
      new Map(
        service
          .all('eventgroups')
          .filter((i) => i.wfstatus === 'approved')
          .map((i) => [i.trcid, i]),
      ),
    );
    // The times come from the injected clock.
    const at = (ms: number) => new Date(ms).toTimeString().slice(0, 8);
    expect(c.stderr()).toContain(`next run at ${at(start + 5 * 60_000)} (every 5 min`);
    expect(c.stderr()).toContain(`next run at ${at(start + 10 * 60_000)} (every 5 min`);
    expect(JSON.parse(c.stdout().trim().split('\n')[1]!).startedAt).toBe(new Date(start + 5 * 60_000).toISOString());
  });

  it('when Ctrl-C comes during a run, then the run stops, exit 130, and the mark is not advanced', async () => {
    for (let i = 0; i < 30; i++) service.create('locations');
    const store = createMemoryStore();
    const c = capture({ store });
    // Ctrl-C as the sync starts: the run must stop at the next page boundary or request.
    const io: CliIo = {
      ...c.io,
      stderr: {
        write: (t: string) => (c.io.stderr.write(t), t.includes('locations: full backfill') && c.interrupt(), true),
      },
    };
    expect(
      await main(
        ['--base-url', server.baseUrl, '--token', TOKEN, '--collections', 'locations,venues', '--size', '5'],
        io,
      ),
    ).toBe(EXIT.interrupted);
    expect(c.stderr()).toContain('stopping');
    expect(c.stderr()).toContain('locations: failed after');
    expect(c.stderr()).not.toContain('venues: full backfill');
    expect(await store.getMark('locations')).toBeUndefined();
  });
});

describe('bin/content-sync.mjs', () => {
  const shim = fileURLToPath(new URL('../bin/content-sync.mjs', import.meta.url));
  // The system Node may be older than 22.18: then the shim re-runs itself with the pinned Node.
  const nodes = [
    process.execPath,
    ...['/usr/bin/node', '/usr/local/bin/node'].filter((p) => existsSync(p) && p !== process.execPath),
  ].slice(0, 2);

  it.each(nodes)('when started with %s and --help, then it prints the usage and exits 0', async (node) => {
    const child = spawn(node, [shim, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(code).toBe(0);
    expect(out).toContain('Usage: content-sync --base-url URL --token TOKEN');
  });

  // One real run (PGlite on disk), with the oldest Node: the re-exec path forwards the signal.
  it(`when started with ${nodes.at(-1)} in watch mode and sent SIGINT between runs, then it exits 0`, async () => {
    const child = spawn(
      nodes.at(-1)!,
      [shim, '--base-url', server.baseUrl, '--out', mirrorDir(), '--collections', 'venues', '--watch', '--json'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, CONTENT_SYNC_TOKEN: TOKEN },
      },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no summary within 100 s; stderr:\n${err}`)), 100_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect((JSON.parse(out) as RunSummary).ok).toBe(true);
  }, 150_000);
});
