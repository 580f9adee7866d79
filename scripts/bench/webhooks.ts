// Webhook benchmark (issue 4): item writes → a local receiver, through the real outbox, batching,
// signing and the delivery worker. Prints and returns write→receipt latency (p50/p99) and
// throughput (items/s and POSTs/s), on PGlite (in memory) or PostgreSQL (a fresh schema at
// BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test).
//
//   node scripts/bench/webhooks.ts [pglite|postgres] [writes]
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { generateTokenValue, hashToken } from '../../reference-impl/src/auth/tokenHash.ts';
import { loadConfig } from '../../reference-impl/src/config.ts';
import { createLogger } from '../../reference-impl/src/logger.ts';
import { insertItem } from '../../reference-impl/src/storage/items/insertItem.ts';
import { runMigrations } from '../../reference-impl/src/storage/migrate.ts';
import { insertToken } from '../../reference-impl/src/storage/tokens/insertToken.ts';
import { startReceiver } from '../../reference-impl/test/support/webhooks/receiver.ts';
import { createWebhookServices } from '../../reference-impl/src/webhooks/worker.ts';
import { openBenchDb } from './benchDb.ts';
import { percentile } from './stats.ts';

export type BenchEngine = 'pglite' | 'postgres';

export interface WebhookBenchOptions {
  engine: BenchEngine;
  /** PostgreSQL server; default $BENCH_DATABASE_URL, $TEST_DATABASE_URL or the local test server. */
  databaseUrl?: string;
  /** Item writes per run (default 1000). */
  writes?: number;
  /** Concurrent writers (default 8; PGlite runs them one at a time anyway). */
  writers?: number;
  print?: (line: string) => void;
}

export interface ThroughputFigures {
  items: number;
  posts: number;
  seconds: number;
  itemsPerSecond: number;
  postsPerSecond: number;
}

export interface WebhookBenchResult {
  engine: BenchEngine;
  writes: number;
  /** Writes as they happen: each item's time from its commit to its arrival at the receiver. */
  streaming: ThroughputFigures & {
    writesPerSecond: number;
    latencyMs: { p50: number; p90: number; p99: number; max: number };
  };
  /** A backlog of `writes` changes queued while the worker was stopped, then delivered. */
  drain: ThroughputFigures;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export async function runWebhookBench(options: WebhookBenchOptions): Promise<WebhookBenchResult> {
  const writes = options.writes ?? 1000;
  const writers = options.writers ?? 8;
  const print = options.print ?? ((line: string) => console.log(line));
  const { db, close } = await openBenchDb({ engine: options.engine, databaseUrl: options.databaseUrl, poolSize: 16 });
  try {
    await runMigrations(db);
  } catch (error) {
    await close();
    throw error;
  }

  // Receipt time of every item, from the bodies the receiver gets.
  const receivedAt = new Map<string, number>();
  let posts = 0;
  const receiver = await startReceiver((_req, res, body) => {
    const now = performance.now();
    posts += 1;
    for (const item of (JSON.parse(body.toString('utf8')) as { items: { id: string }[] }).items) {
      const id = item.id.slice(0, item.id.indexOf('_'));
      if (!receivedAt.has(id)) receivedAt.set(id, now);
    }
    res.writeHead(204).end();
  });

  const config = loadConfig({
    ALLOW_INSECURE_CALLBACKS: 'true',
    LOG_LEVEL: 'silent',
    SEED_DEMO_DATA: 'false',
    PUBLIC_BASE_URL: 'http://127.0.0.1:8080/api',
    SESSION_SECRET: 'b'.repeat(40),
    WEBHOOK_SECRET_KEY: 'k'.repeat(40),
  });
  const logger = createLogger({ level: 'silent' });
  const make = () => createWebhookServices({ db, config, logger, now: Date.now });
  let services = make();

  const organisation = 'Bench Org';
  await db.query(`INSERT INTO accounts (id, name) VALUES ('bench', 'Bench')`);
  await db.query(`INSERT INTO organisations (userorganisation, account_id) VALUES ($1, 'bench')`, [organisation]);
  const tokenId = randomUUID();
  await insertToken(db, {
    id: tokenId,
    accountId: 'bench',
    tokenHash: hashToken(generateTokenValue()),
    created: new Date(),
    name: 'bench',
    roles: ['ROLE_EXTERNAL_USER'],
    callbackUrl: `${receiver.url}/hook`,
    signingSecret: services.secrets.seal('s'.repeat(43), tokenId),
    filterUserorganisations: null,
    filterWfstatus: null,
    useOptimizedImages: false,
    canWrite: false,
  });

  const committedAt = new Map<string, number>();
  async function writeAll(count: number): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: writers }, async () => {
        while (next < count) {
          next += 1;
          const id = await db.transaction(async (tx) => {
            const trcid = `trc-${randomUUID()}`;
            const item = await insertItem(tx, {
              entitytype: 'EVENEMENT',
              trcid,
              wfstatus: 'approved',
              userorganisation: organisation,
              externalId: null,
              title: null,
              slug: null,
              doc: {},
            });
            await services.recordItemChange(tx, {
              itemId: item.id,
              trcid,
              entitytype: 'EVENEMENT',
              userorganisation: organisation,
              action: 'UPDATED',
            });
            return item.id;
          });
          committedAt.set(id, performance.now());
          // Let I/O run between writes, as it does between HTTP requests; a loop of promise
          // continuations alone would starve the sockets (PGlite runs in this thread).
          await new Promise((resolve) => setImmediate(resolve));
        }
      }),
    );
  }
  async function allReceived(ids: Iterable<string>, timeoutMs = 120_000): Promise<void> {
    const wanted = [...ids];
    const deadline = performance.now() + timeoutMs;
    while (!wanted.every((id) => receivedAt.has(id))) {
      if (performance.now() > deadline)
        throw new Error(
          `only ${wanted.filter((id) => receivedAt.has(id)).length} of ${wanted.length} items arrived within ${timeoutMs} ms`,
        );
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  try {
    // 1. Streaming: the worker runs while the writes happen.
    services.worker.start();
    const started = performance.now();
    await writeAll(writes);
    const written = performance.now();
    await allReceived(committedAt.keys());
    const latencies = [...committedAt].map(([id, at]) => receivedAt.get(id)! - at).sort((a, b) => a - b);
    const last = Math.max(...receivedAt.values());
    const seconds = (last - started) / 1000;
    const streaming = {
      items: committedAt.size,
      posts,
      seconds: round(seconds, 3),
      itemsPerSecond: round(committedAt.size / seconds),
      postsPerSecond: round(posts / seconds),
      writesPerSecond: round(writes / ((written - started) / 1000)),
      latencyMs: {
        p50: round(percentile(latencies, 50)),
        p90: round(percentile(latencies, 90)),
        p99: round(percentile(latencies, 99)),
        max: round(latencies.at(-1)!),
      },
    };

    // 2. Drain: the same number of changes queued with the worker stopped, then delivered.
    await services.worker.stop();
    committedAt.clear();
    posts = 0;
    await writeAll(writes);
    services = make();
    const drainStart = performance.now();
    services.worker.start();
    await allReceived(committedAt.keys());
    const drainSeconds = (Math.max(...[...committedAt.keys()].map((id) => receivedAt.get(id)!)) - drainStart) / 1000;
    const drain = {
      items: committedAt.size,
      posts,
      seconds: round(drainSeconds, 3),
      itemsPerSecond: round(committedAt.size / drainSeconds),
      postsPerSecond: round(posts / drainSeconds),
    };

    const result: WebhookBenchResult = { engine: options.engine, writes, streaming, drain };
    print(`webhooks [${options.engine}] ${writes} item writes by ${writers} writers → one local receiver`);
    print(
      `  streaming: write→receipt p50 ${streaming.latencyMs.p50} ms, p90 ${streaming.latencyMs.p90} ms, p99 ${streaming.latencyMs.p99} ms, max ${streaming.latencyMs.max} ms`,
    );
    print(
      `             ${streaming.itemsPerSecond} items/s in ${streaming.posts} POSTs (${streaming.postsPerSecond} POSTs/s) over ${streaming.seconds} s; writes ran at ${streaming.writesPerSecond}/s`,
    );
    print(
      `  drain:     ${drain.items} queued items in ${drain.posts} POSTs in ${drain.seconds} s: ${drain.itemsPerSecond} items/s, ${drain.postsPerSecond} POSTs/s`,
    );
    return result;
  } finally {
    await services.worker.stop();
    await receiver.close();
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const engine = (process.argv[2] ?? 'pglite') as BenchEngine;
  if (engine !== 'pglite' && engine !== 'postgres')
    throw new Error(`engine must be pglite or postgres (received: ${engine})`);
  await runWebhookBench({ engine, writes: Number(process.argv[3] ?? 1000) });
}
