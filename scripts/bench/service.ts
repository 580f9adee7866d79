// The bench's service process (forked by scripts/bench.ts, one per engine): opens the store, seeds
// it, serves the reference app over HTTP, assembled and started as `npm start` does (services.ts;
// rate limiter off, logging silent) and, on request over
// IPC, does the same work as the list endpoint directly in this very process: the SQL query
// (streamRenderedItems) and the page's JSON from the stored renderings (renderPage, rendering
// live what has none), exactly as the route. The load generator runs in the parent, so it never
// shares this event loop.

import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Session } from 'node:inspector/promises';
import { createBearerResolver } from '../../reference-impl/src/auth/resolveBearer.ts';
import { COLLECTIONS, type Collection } from '../../reference-impl/src/domain/entityRules.ts';
import type { Principal } from '../../reference-impl/src/http/principal.ts';
import { listQueryOf } from '../../reference-impl/src/items/listQuery.ts';
import { formatTimestamp } from '../../reference-impl/src/domain/timestamps.ts';
import { RENDERER_VERSION, renderItems, renderPage } from '../../reference-impl/src/items/renderItem.ts';
import type { Db } from '../../reference-impl/src/storage/db.ts';
import { createLogger } from '../../reference-impl/src/logger.ts';
import { listItems, streamRenderedItems } from '../../reference-impl/src/storage/items/listItems.ts';
import { runMigrations } from '../../reference-impl/src/storage/migrate.ts';
import { createServices, startBackgroundServices, type Services } from '../../reference-impl/src/services.ts';
import { createApp } from '../../reference-impl/src/app.ts';
import { loadConfig } from '../../reference-impl/src/config.ts';
import { createLifecycle } from '../../reference-impl/src/lifecycle.ts';
import { openBenchDb } from './benchDb.ts';
import {
  countFresh,
  type BackfillResult,
  type DirectBackfillParams,
  type DirectListParams,
  type DirectRpsParams,
  type InitParams,
  type InitResult,
  type ListQueryInput,
  type RpsResult,
  type TimedRequests,
} from './protocol.ts';
import { seedAccounts, seedItems, touchItems } from './seed.ts';
import { summarise } from './stats.ts';

type Command =
  | { cmd: 'init'; params: InitParams }
  | { cmd: 'directList'; params: DirectListParams }
  | { cmd: 'directBackfill'; params: DirectBackfillParams }
  | { cmd: 'directRps'; params: DirectRpsParams }
  | { cmd: 'touchItems'; params: { count: number } }
  | { cmd: 'cpu' }
  | { cmd: 'profileStart' }
  | { cmd: 'profileStop'; params: { file: string } }
  | { cmd: 'close' };

interface State {
  db: Db;
  services: Services;
  principal: Principal;
  cleanup: () => Promise<void>;
}

let state: State | undefined;
let profiler: Session | undefined;

const mustState = (): State => {
  if (state === undefined) throw new Error('service not initialised');
  return state;
};

/**
 * The list endpoint's work without HTTP: what the route handler does after validation and auth.
 * With `withKeys`, also the id and lastupdated of each item, from the rows (the backfill's keyset
 * needs them; the service never parses its own answer); without, the keys are empty and cost
 * nothing, as in the route.
 */
async function directPage(
  s: State,
  collection: Collection,
  query: ListQueryInput,
  withKeys = false,
): Promise<{ bytes: number; keys: Array<{ id: string; lastupdated: string }> }> {
  const { params, excludePatternDates } = listQueryOf(query, COLLECTIONS[collection], s.principal);
  const keysOf = (rows: ReadonlyArray<{ id: string; lastupdated: Date }>) =>
    withKeys ? rows.map((row) => ({ id: row.id, lastupdated: formatTimestamp(row.lastupdated) })) : [];
  if (excludePatternDates) {
    const stored = await listItems(s.db, params);
    return {
      bytes: Buffer.byteLength(
        JSON.stringify(await renderItems(s.services.ontologies, stored, { excludePatternDates })),
      ),
      keys: keysOf(stored),
    };
  }
  const keys: Array<{ id: string; lastupdated: string }> = [];
  const batches = streamRenderedItems(s.db, { ...params, rendererVersion: RENDERER_VERSION });
  // The rows as the route gets them, their keys noted on the way.
  async function* noted() {
    for await (const batch of batches) {
      keys.push(...keysOf(batch));
      yield batch;
    }
  }
  let bytes = 0;
  for await (const chunk of renderPage(s.services.ontologies, withKeys ? noted() : batches)) bytes += chunk.length;
  return { bytes, keys };
}

async function init(params: InitParams): Promise<InitResult> {
  const opened = performance.now();
  const {
    db,
    location,
    close: cleanup,
  } = await openBenchDb({
    engine: params.engine,
    databaseUrl: params.databaseUrl,
    pgliteStorage: params.pgliteStorage,
    poolSize: params.poolSize,
  });
  const openMs = performance.now() - opened;
  try {
    const migrating = performance.now();
    await runMigrations(db);
    const migrateMs = performance.now() - migrating;
    const { token } = await seedAccounts(db);
    const seed = await seedItems(db, { items: params.items });
    const config = loadConfig({
      PORT: '0',
      DATA_DIR: ':memory:',
      LOG_LEVEL: 'silent',
      SEED_DEMO_DATA: 'false',
      SESSION_SECRET: 'b'.repeat(40),
      RATE_LIMIT_ENABLED: 'false',
    });
    const logger = createLogger({ level: 'silent' });
    const services = createServices(config, { db, logger, now: Date.now });
    const lifecycle = createLifecycle(logger);
    await startBackgroundServices(services, lifecycle);
    const server = createServer(createApp(services));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    const principal = await createBearerResolver({ db })(token);
    if (principal === null) throw new Error('the bench token does not resolve');
    state = {
      db,
      services,
      principal,
      cleanup: async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
        await lifecycle.stopAll();
        await cleanup();
      },
    };
    return { baseUrl, token, seed, migrateMs, openMs, location };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

async function directList(params: DirectListParams): Promise<TimedRequests> {
  const s = mustState();
  let bytes = 0;
  for (let i = 0; i < params.warmup; i++) await directPage(s, params.collection, params.query);
  const samples: number[] = [];
  for (let i = 0; i < params.iterations; i++) {
    const started = performance.now();
    const page = await directPage(s, params.collection, params.query);
    samples.push(performance.now() - started);
    if (i === params.iterations - 1) bytes = page.bytes;
  }
  return { samples, bytes };
}

/** The sync procedure (PAGE-001..005) per collection, directly: same queries, same stop rule. */
async function directBackfill(params: DirectBackfillParams): Promise<BackfillResult> {
  const s = mustState();
  let items = 0,
    pages = 0,
    bytes = 0;
  const started = performance.now();
  for (const collection of params.collections) {
    let mark: string | undefined;
    let atMark = new Set<string>();
    for (;;) {
      const query: ListQueryInput = {
        wfstatus: [...params.wfstatus],
        sortField: 'lastupdated',
        sortOrder: 'ASC',
        size: params.size,
        ...(mark === undefined ? {} : { lastupdated: mark }),
      };
      const page = await directPage(s, collection, query, true);
      pages++;
      bytes += page.bytes;
      const next = countFresh(page.keys, mark, atMark);
      items += next.fresh;
      mark = next.mark;
      atMark = next.atMark;
      if (page.keys.length < params.size) break;
    }
  }
  const ms = performance.now() - started;
  return { items, pages, ms, itemsPerSecond: items / (ms / 1000), bytes };
}

/** `concurrency` loops doing the list endpoint's work for `durationMs`: the direct requests/s. */
async function directRps(params: DirectRpsParams): Promise<RpsResult> {
  const s = mustState();
  const run = async (ms: number): Promise<{ samples: number[]; ms: number }> => {
    const samples: number[] = [];
    const started = performance.now();
    const deadline = started + ms;
    await Promise.all(
      Array.from({ length: params.concurrency }, async () => {
        while (performance.now() < deadline) {
          const t = performance.now();
          await directPage(s, params.collection, params.query);
          samples.push(performance.now() - t);
        }
      }),
    );
    return { samples, ms: performance.now() - started };
  };
  if (params.warmupMs > 0) await run(params.warmupMs);
  const { samples, ms } = await run(params.durationMs);
  return { requests: samples.length, ms, requestsPerSecond: samples.length / (ms / 1000), latency: summarise(samples) };
}

async function handle(command: Command): Promise<unknown> {
  switch (command.cmd) {
    case 'init':
      return init(command.params);
    case 'directList':
      return directList(command.params);
    case 'directBackfill':
      return directBackfill(command.params);
    case 'directRps':
      return directRps(command.params);
    case 'touchItems':
      return touchItems(mustState().db, command.params.count);
    case 'cpu': {
      const usage = process.cpuUsage();
      return { cpuMs: (usage.user + usage.system) / 1000 };
    }
    case 'profileStart': {
      profiler ??= new Session();
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.setSamplingInterval', { interval: 200 });
      await profiler.post('Profiler.start');
      return null;
    }
    case 'profileStop': {
      if (profiler === undefined) throw new Error('no profile running');
      const { profile } = await profiler.post('Profiler.stop');
      profiler.disconnect();
      profiler = undefined;
      await writeFile(command.params.file, JSON.stringify(profile));
      return command.params.file;
    }
    case 'close': {
      await state?.cleanup();
      state = undefined;
      return null;
    }
  }
}

// Only when forked as the bench's service process (scripts/bench/run.ts sets the variable).
if (process.send !== undefined && process.env.BENCH_SERVICE_CHILD === '1') {
  process.on('message', (message: { id: number } & Command) => {
    handle(message).then(
      (result) => process.send!({ id: message.id, ok: true, result }),
      (error: unknown) =>
        process.send!({
          id: message.id,
          ok: false,
          error: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error),
        }),
    );
  });
  process.on('disconnect', () => {
    void (state?.cleanup() ?? Promise.resolve()).finally(() => process.exit(0));
  });
}
