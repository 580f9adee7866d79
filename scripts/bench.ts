// `npm run bench [-- options]`: seeds each engine with realistic items and prints the list
// endpoint's latency, backfill and request-rate figures beside the same work done directly, the
// Prism mock under the same load (in rounds alternating with the service), and the other
// components' benches when present. Not a test:
// see docs/benchmarks.md for what each figure means.

import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchDatabaseUrl } from './bench/benchDb.ts';
import type { Engine } from './bench/protocol.ts';
import { formatReport } from './bench/report.ts';
import { FULL_DEFAULTS, QUICK_DEFAULTS, REPO_ROOT, runBench, runFilterBench, type BenchOptions } from './bench/run.ts';

const HELP = `Usage: npm run bench -- [options]

  --engine pglite|postgres|both   engines to measure (default: both)
  --items N                       items to seed (default ${FULL_DEFAULTS.items}; --quick: ${QUICK_DEFAULTS.items})
  --quick                         small smoke run (few items, short runs): proves it works, figures mean nothing
  --iterations N                  sequential GET /events?size=2000 requests per reader and directly, spread over
                                  the rounds (default ${FULL_DEFAULTS.latencyIterations})
  --connections N                 autocannon connections (default ${FULL_DEFAULTS.connections})
  --duration S                    autocannon seconds per run (default ${FULL_DEFAULTS.durationS})
  --rounds N                      rounds per engine (default ${FULL_DEFAULTS.rounds}; --quick: ${QUICK_DEFAULTS.rounds}): of GET /events?size=2000
                                  (HTTP, direct, then undici; p50 over all rounds), of the client rows (the
                                  prefetching JSON.parse backfill, syncItems, content-sync; median runs) and of GET /events?size=20
                                  (the service, the service with Cache-Control: no-cache, then Prism;
                                  the medians are compared)
  --pglite memory|disk            PGlite in memory or in a temporary directory (default: disk, as npm start)
  --no-mock                       skip the Prism comparison
  --no-extras                     skip the webhooks, images and client benches
  --filters-only                  only seed and time each list filter's GET /events?size=20 (--iterations each)
  --quiet-load L                  before each engine, wait (≤ 10 min) until the 1-minute load average is below L
  --cpu-prof                      write a CPU profile of the service process per phase to reports/bench/profiles/
                                  (open in Chrome DevTools; profiling slows the figures down)
  --out DIR                       where the JSON report goes (default reports/bench)
  --database-url URL              PostgreSQL server (default $BENCH_DATABASE_URL, $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test);
                                  the bench works in a fresh schema and drops it afterwards`;

function positiveNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number (received: ${value})`);
  return n;
}

function positiveInteger(name: string, value: string | undefined): number | undefined {
  const n = positiveNumber(name, value);
  if (n !== undefined && !Number.isInteger(n)) throw new Error(`--${name} must be a whole number (received: ${value})`);
  return n;
}

export function parseBenchArgs(
  argv: readonly string[],
  log: (line: string) => void = console.log,
): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      engine: { type: 'string', default: 'both' },
      items: { type: 'string' },
      quick: { type: 'boolean', default: false },
      iterations: { type: 'string' },
      connections: { type: 'string' },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      pglite: { type: 'string', default: 'disk' },
      'no-mock': { type: 'boolean', default: false },
      'no-extras': { type: 'boolean', default: false },
      'filters-only': { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      'quiet-load': { type: 'string' },
      out: { type: 'string' },
      'database-url': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const engines: Engine[] =
    values.engine === 'both'
      ? ['pglite', 'postgres']
      : values.engine === 'pglite' || values.engine === 'postgres'
        ? [values.engine]
        : (() => {
            throw new Error(`--engine must be pglite, postgres or both (received: ${values.engine})`);
          })();
  if (values.pglite !== 'memory' && values.pglite !== 'disk')
    throw new Error(`--pglite must be memory or disk (received: ${values.pglite})`);
  const defaults = values.quick ? QUICK_DEFAULTS : FULL_DEFAULTS;
  const outDir = path.resolve(REPO_ROOT, values.out ?? 'reports/bench');
  return {
    engines,
    quick: values.quick,
    items: Math.floor(positiveNumber('items', values.items) ?? defaults.items),
    latencyIterations: Math.floor(positiveNumber('iterations', values.iterations) ?? defaults.latencyIterations),
    latencyWarmup: defaults.latencyWarmup,
    backfillSize: defaults.backfillSize,
    connections: Math.floor(positiveNumber('connections', values.connections) ?? defaults.connections),
    durationS: positiveNumber('duration', values.duration) ?? defaults.durationS,
    warmupS: defaults.warmupS,
    rounds: positiveInteger('rounds', values.rounds) ?? defaults.rounds,
    mock: !values['no-mock'],
    extras: !values['no-extras'],
    databaseUrl: values['database-url'] ?? benchDatabaseUrl(),
    pgliteStorage: values.pglite,
    quietLoad: positiveNumber('quiet-load', values['quiet-load']),
    outDir,
    cpuProfileDir: values['cpu-prof'] ? path.join(outDir, 'profiles') : undefined,
    filtersOnly: values['filters-only'],
    log,
  };
}

async function main(): Promise<void> {
  const options = parseBenchArgs(process.argv.slice(2));
  if (options === 'help') {
    console.log(HELP);
    return;
  }
  if (options.filtersOnly === true) {
    await runFilterBench(options);
    return;
  }
  const report = await runBench(options);
  console.log(`\n${formatReport(report)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  });
}
