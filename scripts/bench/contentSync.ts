// `content-sync --database-url` as a user runs it (the released package installed with npm, a
// process of its own) into a fresh PostgreSQL schema: a backfill from empty, then, after the
// service changed some items, an incremental run. Each run is timed from the spawn to the
// process's exit, and checked: exit 0, every item stored, a mark saved per collection, the
// incremental run fetching the changed items.

import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { RunSummary } from '../../client/cli/mirror.ts';
import { releasePack } from '../release-pack.ts';

export interface ContentSyncBenchOptions {
  /** The content-sync launcher to run with this Node. Default: the released package, installed for this run. */
  command?: string;
  /** Ends in `/api`. */
  baseUrl: string;
  token: string;
  /** PostgreSQL server; the mirror goes into a fresh schema, dropped afterwards. */
  databaseUrl: string;
  size: number;
  /** Items the service changes between the two runs. */
  changes: number;
  /** Makes the service change `count` items; returns how many it changed. */
  change: (count: number) => Promise<number>;
  print?: (line: string) => void;
}

export interface ContentSyncRun {
  /** Spawn to exit, Node's start included. */
  seconds: number;
  /** Of it, the run as the command times it (its summary's durationMs): the store opened to the last collection synced. */
  runSeconds: number;
  /** Distinct items received. */
  items: number;
  upserted: number;
  removed: number;
  pages: number;
}

export interface ContentSyncBenchResult {
  schema: string;
  backfill: ContentSyncRun & { itemsPerSecond: number; rows: number; marks: number };
  incremental: ContentSyncRun & { changed: number };
}

/** The server URL with the schema as the search path, so content-sync's tables go there. */
function urlInSchema(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.href;
}

async function runContentSync(options: ContentSyncBenchOptions, command: string, url: string): Promise<ContentSyncRun> {
  const args = [command, '--base-url', options.baseUrl, '--database-url', url, '--size', String(options.size)];
  const started = performance.now();
  const child = spawn(process.execPath, [...args, '--json', '--quiet'], {
    env: { ...process.env, CONTENT_SYNC_TOKEN: options.token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`content-sync exited ${code}: ${stderr.trim().slice(0, 500)}`);
  const summary = JSON.parse(stdout) as RunSummary;
  if (!summary.ok) throw new Error(`content-sync reported a failure: ${stdout.slice(0, 500)}`);
  const { fetched, upserted, removed, pages } = summary.totals;
  return { seconds, runSeconds: summary.durationMs / 1000, items: fetched, upserted, removed, pages };
}

/**
 * The client as its users get it: packed as released (`npm run release:pack`: compiled JavaScript)
 * and installed with npm, beside the spec package and `pg`, into a new project in a temporary
 * folder. Returns its `content-sync` launcher and the folder's removal.
 */
export async function installReleasedContentSync(
  options: { print?: (line: string) => void } = {},
): Promise<{ command: string; remove(): Promise<void> }> {
  const print = options.print ?? (() => {});
  const started = performance.now();
  const packed = await releasePack(() => {});
  const tarball = (name: string) => {
    const found = packed.find((p) => p.name === name);
    if (found === undefined) throw new Error(`release:pack made no ${name}`);
    return found.tarball;
  };
  const pgVersion = (createRequire(import.meta.url)('pg/package.json') as { version: string }).version;
  const dir = await mkdtemp(path.join(tmpdir(), 'content-sync-bench-'));
  try {
    await writeFile(path.join(dir, 'package.json'), '{ "private": true }\n');
    await promisify(execFile)(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        tarball('@content-service/spec'),
        tarball('@content-service/client'),
        `pg@${pgVersion}`,
      ],
      { cwd: dir },
    );
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  print(`packed and installed @content-service/client in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return {
    command: path.join(dir, 'node_modules/@content-service/client/bin/content-sync.js'),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export async function runContentSyncBench(options: ContentSyncBenchOptions): Promise<ContentSyncBenchResult> {
  if (options.command !== undefined) return benchCommand(options, options.command);
  const installed = await installReleasedContentSync({ print: options.print });
  try {
    return await benchCommand(options, installed.command);
  } finally {
    await installed.remove();
  }
}

async function benchCommand(options: ContentSyncBenchOptions, command: string): Promise<ContentSyncBenchResult> {
  const schema = `bench_sync_${randomBytes(5).toString('hex')}`;
  const admin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  await admin((client) => client.query(`CREATE SCHEMA ${schema}`));
  try {
    const url = urlInSchema(options.databaseUrl, schema);
    const backfill = await runContentSync(options, command, url);
    const { rows, marks } = await admin(async (client) => ({
      rows: Number((await client.query(`SELECT count(*) AS n FROM ${schema}.content_sync_items`)).rows[0].n),
      marks: Number((await client.query(`SELECT count(*) AS n FROM ${schema}.content_sync_marks`)).rows[0].n),
    }));
    if (rows !== backfill.upserted)
      throw new Error(`content-sync stored ${rows} rows, but upserted ${backfill.upserted} distinct items`);
    const itemsPerSecond = Math.round(backfill.items / backfill.seconds);
    options.print?.(
      `content-sync backfill into PostgreSQL: ${backfill.items} items (${rows} stored, ${marks} marks) in ${backfill.seconds.toFixed(2)} s = ${itemsPerSecond} items/s`,
    );

    const changed = await options.change(options.changes);
    const incremental = await runContentSync(options, command, url);
    // The changed items, and per collection at most the item at its saved mark again (the bound is inclusive).
    if (incremental.items < changed || incremental.items > changed + incremental.pages)
      throw new Error(`the incremental run received ${incremental.items} items, the service changed ${changed}`);
    options.print?.(
      `content-sync incremental run after ${changed} changed items: ${incremental.seconds.toFixed(2)} s, ${incremental.pages} pages`,
    );
    return {
      schema,
      backfill: { ...backfill, itemsPerSecond, rows, marks },
      incremental: { ...incremental, changed },
    };
  } finally {
    await admin((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  }
}
