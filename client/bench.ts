// Client-side benchmark (issue 6): backfill items per second of `syncItems` through the typed
// client and the retrying transport against a running service, from an empty mirror. The bench
// runner seeds the service and calls `runClientBench`; it can also be run by hand:
//
//   node client/bench.ts --base-url http://127.0.0.1:8080/api --token cst_… [--store pglite] [--size 2000]

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createContentClient } from './http/contentClient.ts';
import type { RetryReason } from './http/retry.ts';
import { createTransport } from './http/transport.ts';
import { createMemoryStore } from './sync/memoryStore.ts';
import { openSqlStore } from './sync/sqlStore.ts';
import type { SyncStore } from './sync/store.ts';
import { DEFAULT_SYNC_SIZE, syncItems } from './sync/syncItems.ts';
import { COLLECTIONS, type Collection } from './sync/types.ts';

export interface ClientBenchOptions {
  /** Ends in `/api`. */
  baseUrl: string;
  /** Should see approved, archived and deleted items, as a sync token does. */
  token: string;
  /** Default: all five. */
  collections?: readonly Collection[];
  /** Page size, default 2000. */
  size?: number;
  /**
   * Where the mirror goes: `memory` (default: the figure is the client and the service), `pglite`
   * (an embedded store in a temporary directory, what `content-sync` uses), or your own store.
   */
  store?: 'memory' | 'pglite' | SyncStore;
  print?: (line: string) => void;
}

export interface ClientBenchCollection {
  collection: Collection;
  /** Distinct items received (boundary repeats not counted). */
  items: number;
  upserted: number;
  removed: number;
  pages: number;
  seconds: number;
}

export interface ClientBenchResult {
  store: string;
  size: number;
  items: number;
  upserted: number;
  removed: number;
  pages: number;
  seconds: number;
  itemsPerSecond: number;
  /** Waits of the transport (429; also 5xx and network retries), their total time, and by reason. */
  throttledWaits: number;
  waitedSeconds: number;
  waitsByReason: Partial<Record<RetryReason, number>>;
  collections: ClientBenchCollection[];
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

async function openBenchStore(
  choice: ClientBenchOptions['store'],
): Promise<{ store: SyncStore; name: string; close(): Promise<void> }> {
  if (choice === undefined || choice === 'memory')
    return { store: createMemoryStore(), name: 'memory', close: async () => {} };
  if (choice !== 'pglite') return { store: choice, name: 'custom', close: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), 'client-bench-'));
  const { store, close } = await openSqlStore({ dataDir: dir });
  return { store, name: 'pglite', close: async () => (await close(), await rm(dir, { recursive: true, force: true })) };
}

/** One backfill of every collection from an empty mirror; the clock runs from the first request to the last write. */
export async function runClientBench(options: ClientBenchOptions): Promise<ClientBenchResult> {
  const size = options.size ?? DEFAULT_SYNC_SIZE;
  const collections = options.collections ?? COLLECTIONS;
  let throttledWaits = 0;
  let waitedMs = 0;
  const waitsByReason: Partial<Record<RetryReason, number>> = {};
  const transport = createTransport({
    retry: {
      onWait: (w) => {
        throttledWaits++;
        waitedMs += w.delayMs;
        waitsByReason[w.reason] = (waitsByReason[w.reason] ?? 0) + 1;
      },
    },
  });
  const client = createContentClient({ baseUrl: options.baseUrl, token: options.token, transport });
  const { store, name, close } = await openBenchStore(options.store);
  try {
    const rows: ClientBenchCollection[] = [];
    const started = performance.now();
    for (const collection of collections) {
      const t0 = performance.now();
      const s = await syncItems(client, collection, store, { size });
      const row = {
        collection,
        items: s.fetched - s.repeated,
        upserted: s.upserted,
        removed: s.removed,
        pages: s.pages,
        seconds: round((performance.now() - t0) / 1000, 3),
      };
      rows.push(row);
      options.print?.(`  ${collection}: ${row.items} items, ${row.pages} pages, ${row.seconds} s`);
    }
    // Rounded once, so the printed rate is the printed items over the printed seconds.
    const seconds = round((performance.now() - started) / 1000, 3);
    const sum = (key: 'items' | 'upserted' | 'removed' | 'pages') => rows.reduce((n, r) => n + r[key], 0);
    const result: ClientBenchResult = {
      store: name,
      size,
      items: sum('items'),
      upserted: sum('upserted'),
      removed: sum('removed'),
      pages: sum('pages'),
      seconds,
      itemsPerSecond: Math.round(sum('items') / seconds),
      throttledWaits,
      waitedSeconds: round(waitedMs / 1000),
      waitsByReason,
      collections: rows,
    };
    options.print?.(
      `client backfill (${name} mirror, size ${size}): ${result.items} items in ${result.seconds} s = ${result.itemsPerSecond} items/s, ${throttledWaits} throttled waits`,
    );
    return result;
  } finally {
    await client.close();
    await transport.close();
    await close();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      'base-url': { type: 'string' },
      token: { type: 'string' },
      store: { type: 'string' },
      size: { type: 'string' },
    },
  });
  const baseUrl = values['base-url'];
  const token = values.token ?? process.env.CONTENT_SYNC_TOKEN;
  if (!baseUrl || !token || (values.store !== undefined && values.store !== 'memory' && values.store !== 'pglite')) {
    console.error(
      'usage: node client/bench.ts --base-url URL --token TOKEN (or CONTENT_SYNC_TOKEN) [--store memory|pglite] [--size N]',
    );
    process.exitCode = 2;
  } else {
    const result = await runClientBench({
      baseUrl,
      token,
      store: values.store as 'memory' | 'pglite' | undefined,
      size: values.size ? Number(values.size) : undefined,
      print: console.log,
    });
    console.log(JSON.stringify(result));
  }
}
