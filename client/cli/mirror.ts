// One mirror: a store, a transport and a typed client, opened once and run as often as asked
// (once, or on every --watch tick). Each collection has its own mark, so a failure in one does
// not hold the others back; the failed one keeps its old mark and the next run redoes it.

import { mkdir } from 'node:fs/promises';
import { createContentClient } from '../http/contentClient.ts';
import type { WaitEvent } from '../http/retry.ts';
import { createTransport } from '../http/transport.ts';
import { reconcile } from '../sync/reconcile.ts';
import { openSqlStore } from '../sync/sqlStore.ts';
import { syncItems, type SyncProgress } from '../sync/syncItems.ts';
import type { SyncStore } from '../sync/store.ts';
import type { Collection } from '../sync/types.ts';
import type { SyncCommand } from './args.ts';

/**
 * The item count a list answer states, if the service sends one: `X-Total-Count`, as many APIs
 * do. The interface defines none, so a service that follows only the interface leaves it out.
 */
export const TOTAL_COUNT_HEADER = 'x-total-count';

export function totalCountOf(headers: Headers): number | undefined {
  const value = headers.get(TOTAL_COUNT_HEADER);
  return value !== null && /^[0-9]+$/.test(value.trim()) ? Number(value) : undefined;
}

export interface CollectionResult {
  collection: Collection;
  ok: boolean;
  /** Distinct items received (a page's repeat of the previous page's last item is not counted). */
  fetched: number;
  upserted: number;
  removed: number;
  skipped: number;
  pages: number;
  /** Local items removed by reconciliation (with --reconcile). */
  reconciled: number;
  /** Waits of the transport (429 throttling, 5xx and network retries) during this collection. */
  throttledWaits: number;
  waitedMs: number;
  durationMs: number;
  /** null before the first successful run (JSON has no undefined). */
  previousMark: string | null;
  mark: string | null;
  error?: string;
}

export interface RunSummary {
  ok: boolean;
  startedAt: string;
  durationMs: number;
  collections: CollectionResult[];
  totals: Pick<
    CollectionResult,
    'fetched' | 'upserted' | 'removed' | 'skipped' | 'pages' | 'reconciled' | 'throttledWaits' | 'waitedMs'
  >;
}

export interface RunProgress extends SyncProgress {
  /** The items this run will fetch, as the first page's answer stated it (totalCountOf); absent when it did not. */
  total?: number;
}

export interface RunHooks {
  /** `from`: the saved mark a sync starts from (undefined: full backfill). */
  onStart?(collection: Collection, phase: 'sync' | 'reconcile', from?: string): void;
  onProgress?(progress: RunProgress): void;
  /** Details for `--debug`: whether the first page stated an item count. */
  onDebug?(collection: Collection, message: string): void;
  onWait?(collection: Collection, wait: WaitEvent): void;
  onDone?(result: CollectionResult): void;
}

export interface Mirror {
  /** Where the items go, for messages. */
  readonly target: string;
  run(hooks?: RunHooks, signal?: AbortSignal): Promise<RunSummary>;
  close(): Promise<void>;
}

const errorText = (error: unknown) =>
  error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);

export interface MirrorDeps {
  clock?: () => number;
  /** Default: PGlite in `command.out`, or PostgreSQL at `command.databaseUrl`. */
  openStore?: (command: SyncCommand) => Promise<{ store: SyncStore; close(): Promise<void> }>;
}

async function openCommandStore(command: SyncCommand): Promise<{ store: SyncStore; close(): Promise<void> }> {
  if (command.databaseUrl !== undefined) return openSqlStore({ databaseUrl: command.databaseUrl });
  await mkdir(command.out, { recursive: true });
  return openSqlStore({ dataDir: command.out });
}

export async function openMirror(command: SyncCommand, deps: MirrorDeps = {}): Promise<Mirror> {
  const clock = deps.clock ?? Date.now;
  const { store, close: closeStore } = await (deps.openStore ?? openCommandStore)(command);

  // Waits and answers are attributed to the collection being synced; collections run one after another.
  let current: CollectionResult | undefined;
  // The first list answer of the current collection's sync, once it has arrived.
  let firstAnswer: { total: number | undefined } | undefined;
  let hooks: RunHooks = {};
  const transport = createTransport({
    retry: {
      onWait: (wait) => {
        if (current === undefined) return;
        current.throttledWaits++;
        current.waitedMs += wait.delayMs;
        hooks.onWait?.(current.collection, wait);
      },
    },
  });
  const observed = {
    ...transport,
    fetch: (async (input, init) => {
      const response = await transport.fetch(input, init);
      if (current !== undefined && firstAnswer === undefined && response.ok) {
        firstAnswer = { total: totalCountOf(response.headers) };
        hooks.onDebug?.(
          current.collection,
          firstAnswer.total === undefined
            ? `the first page states no item count (${TOTAL_COUNT_HEADER}): counting pages and items`
            : `the first page states ${firstAnswer.total} items (${TOTAL_COUNT_HEADER})`,
        );
      }
      return response;
    }) as typeof transport.fetch,
  };
  const client = createContentClient({ baseUrl: command.baseUrl, token: command.token, transport: observed });

  async function runCollection(collection: Collection, signal?: AbortSignal): Promise<CollectionResult> {
    const started = clock();
    const result: CollectionResult = {
      collection,
      ok: false,
      fetched: 0,
      upserted: 0,
      removed: 0,
      skipped: 0,
      pages: 0,
      reconciled: 0,
      throttledWaits: 0,
      waitedMs: 0,
      durationMs: 0,
      previousMark: null,
      mark: null,
    };
    current = result;
    try {
      const previousMark = await store.getMark(collection);
      result.previousMark = result.mark = previousMark ?? null;
      hooks.onStart?.(collection, 'sync', previousMark);
      firstAnswer = undefined;
      const summary = await syncItems(client, collection, store, {
        size: command.size,
        signal,
        onProgress: (p) => {
          // Distinct items: the boundary repeats of the inclusive bound within this run are left out.
          Object.assign(result, {
            fetched: p.fetched - p.repeated,
            upserted: p.upserted,
            removed: p.removed,
            skipped: p.skipped,
            pages: p.pages,
          });
          const total = firstAnswer?.total;
          hooks.onProgress?.({ ...p, fetched: result.fetched, ...(total !== undefined ? { total } : {}) });
        },
      });
      result.mark = summary.mark ?? null;
      if (command.reconcile) {
        hooks.onStart?.(collection, 'reconcile');
        result.reconciled = (await reconcile(client, collection, store, { size: command.size, signal })).removed;
      }
      result.ok = true;
    } catch (error) {
      result.error = errorText(error);
      if (signal?.aborted) result.error = 'interrupted';
    } finally {
      result.durationMs = clock() - started;
      current = undefined;
    }
    hooks.onDone?.(result);
    return result;
  }

  return {
    target:
      command.databaseUrl !== undefined ? `PostgreSQL ${new URL(command.databaseUrl).host}` : `PGlite ${command.out}`,
    async run(runHooks = {}, signal) {
      hooks = runHooks;
      const started = clock();
      const startedAt = new Date(started).toISOString();
      const collections: CollectionResult[] = [];
      for (const collection of command.collections) {
        if (signal?.aborted) break;
        collections.push(await runCollection(collection, signal));
      }
      const sum = (key: keyof RunSummary['totals']) => collections.reduce((total, c) => total + c[key], 0);
      return {
        ok: collections.length === command.collections.length && collections.every((c) => c.ok),
        startedAt,
        durationMs: clock() - started,
        collections,
        totals: {
          fetched: sum('fetched'),
          upserted: sum('upserted'),
          removed: sum('removed'),
          skipped: sum('skipped'),
          pages: sum('pages'),
          reconciled: sum('reconciled'),
          throttledWaits: sum('throttledWaits'),
          waitedMs: sum('waitedMs'),
        },
      };
    },
    async close() {
      await client.close();
      await transport.close();
      await closeStore();
    },
  };
}
