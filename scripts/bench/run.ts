// The bench: for each engine, a service process seeded with N items; then, through real HTTP from
// this process and directly inside the service process, the same list work; then the Prism mock
// under the same load; then the other components' benches (webhooks, images, the client's backfill).

import { fork, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runClientBench, type ClientBenchResult } from '../../client/bench.ts';
import { startPrism } from '../../mock/start.ts';
import type { Collection } from '../../reference-impl/src/domain/entityRules.ts';
import { httpBackfill, loadTest, sequentialLatency, type HttpBackfillResult, type LoadResult } from './http.ts';
import { runImageBench, type ImageBenchResult } from './images.ts';
import type {
  BackfillResult, DirectBackfillParams, DirectListParams, DirectRpsParams, Engine, InitParams, InitResult, RpsResult,
} from './protocol.ts';
import { CpuMeter, processCpuMs, type LatencySummary } from './stats.ts';
import { runWebhookBench, type WebhookBenchResult } from './webhooks.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface BenchOptions {
  engines: Engine[];
  items: number;
  quick: boolean;
  /** Sequential GET /events?size=2000 requests (and as many direct runs). */
  latencyIterations: number;
  latencyWarmup: number;
  /** Page size of the backfill (the interface's maximum, 2000, in a full run). */
  backfillSize: number;
  connections: number;
  durationS: number;
  warmupS: number;
  /** Run the Prism mock comparison. */
  mock: boolean;
  /** Run the other components' benches (webhooks, images, client backfill). */
  extras: boolean;
  databaseUrl: string;
  pgliteStorage: 'memory' | 'disk';
  /** Directory of the JSON report; undefined: none written. */
  outDir: string | undefined;
  /** Before each engine and the mock, wait (up to 10 minutes) until the 1-minute load average is below this; undefined: don't wait. */
  quietLoad: number | undefined;
  /** Write a CPU profile of the service process per phase into this directory (profiling slows the figures). */
  cpuProfileDir: string | undefined;
  log: (line: string) => void;
}

export const FULL_DEFAULTS = {
  items: 100_000, latencyIterations: 50, latencyWarmup: 5, backfillSize: 2000, connections: 10, durationS: 10, warmupS: 2,
} as const;
export const QUICK_DEFAULTS = {
  items: 300, latencyIterations: 5, latencyWarmup: 1, backfillSize: 50, connections: 4, durationS: 1, warmupS: 0.5,
} as const;

export const SYNC_STATUSES = ['approved', 'archived', 'deleted'] as const;
export const ALL_COLLECTIONS: readonly Collection[] = ['events', 'locations', 'routes', 'venues', 'eventgroups'];
/** Targets (on PostgreSQL, issue 3): page within 1.5× of direct; backfill ≥ 20,000 items/s; service rps ≥ mock rps. */
export const TARGETS = { pageRatioMax: 1.5, backfillItemsPerSecondMin: 20_000, serviceOverMockMin: 1 } as const;
/** The backfill target is checked on the prefetching backfill (the procedure's requests, the client's parsing overlapped). */
export const BACKFILL_TARGET_NAME = 'keyset backfill over HTTP (client prefetches the next page while parsing)';
/** Targets of the webhooks (issue 4, on PostgreSQL): write→receipt p50 ≤ 200 ms, ≥ 500 deliveries/s. */
export const WEBHOOK_TARGETS = { p50MsMax: 200, deliveriesPerSecondMin: 500 } as const;

export interface EngineReport {
  engine: Engine;
  location: string;
  openMs: number;
  migrateMs: number;
  seed: InitResult['seed'];
  loadavgBefore: number[];
  page2000: { http: LatencySummary & { bytes: number }; direct: LatencySummary & { bytes: number }; ratioP50: number; ratioP99: number; iterations: number };
  /** http: the sync procedure request by request; prefetch: the same requests, the next one sent while the client parses a page. */
  backfill: { http: HttpBackfillResult; prefetch: HttpBackfillResult; direct: BackfillResult; ratio: number; size: number; wfstatus: readonly string[]; collections: readonly string[] };
  rps20: { http: LoadResult; direct: RpsResult; ratio: number; cpu: Record<string, number> };
  /** CPU time per measured phase; units: requests (page2000, rps20) or thousands of items (backfill). */
  phases: Record<string, PhaseCpu>;
  client?: ExtraResult<ClientBenchResult>;
  webhooks?: ExtraResult<WebhookBenchResult>;
}

export interface PhaseCpu {
  wallMs: number;
  /** CPU time of the service process (user + system), from /proc; NaN where unavailable. */
  serviceCpuMs: number;
  /** CPU time of the bench process (the load generator; idle during direct phases). */
  generatorCpuMs: number;
  units: number;
  serviceCpuMsPerUnit: number;
  /** Percent of one core per process, and the machine's busy percent. */
  shares: Record<string, number>;
}

/** Another component's bench: its result, or why it failed (a failure never fails the run). */
export type ExtraResult<T> =
  | { source: string; ok: true; result: T; ms: number }
  | { source: string; ok: false; error: string; ms: number };

export interface MockReport {
  flags: string[];
  env: Record<string, string>;
  startMs: number;
  rps20: LoadResult;
  cpu: Record<string, number>;
  /** CPU time of the Prism process per request. */
  mockCpuMsPerRequest: number;
}

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  host: { cpus: number; cpuModel: string; memoryGiB: number; node: string; platform: string; loadavgAtStart: number[] };
  options: Omit<BenchOptions, 'log'>;
  engines: Partial<Record<Engine, EngineReport>>;
  mock?: MockReport | { error: string };
  images?: ExtraResult<ImageBenchResult>;
  targets: TargetCheck[];
  reportFile?: string;
}

export interface TargetCheck {
  engine: Engine | 'mock';
  name: string;
  target: string;
  measured: string;
  met: boolean;
  /** Only informative (the target is set for PostgreSQL). */
  informative: boolean;
}

/** The service process of one engine, driven over IPC. */
class ServiceProcess {
  readonly child: ChildProcess;
  private next = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  constructor() {
    const script = fileURLToPath(new URL('./service.ts', import.meta.url));
    this.child = fork(script, [], {
      execPath: process.execPath,
      execArgv: [],
      env: { ...process.env, BENCH_SERVICE_CHILD: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (message: { id: number; ok: boolean; result?: unknown; error?: string }) => {
      const waiter = this.pending.get(message.id);
      if (waiter === undefined) return;
      this.pending.delete(message.id);
      if (message.ok) waiter.resolve(message.result);
      else waiter.reject(new Error(`service process: ${message.error}`));
    });
    this.child.on('exit', (code, signal) => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(`service process exited (${code ?? signal})`));
      this.pending.clear();
    });
  }

  call<T>(cmd: 'init', params: InitParams): Promise<T>;
  call<T>(cmd: 'directList', params: DirectListParams): Promise<T>;
  call<T>(cmd: 'directBackfill', params: DirectBackfillParams): Promise<T>;
  call<T>(cmd: 'directRps', params: DirectRpsParams): Promise<T>;
  call<T>(cmd: 'close' | 'profileStart'): Promise<T>;
  call<T>(cmd: 'profileStop', params: { file: string }): Promise<T>;
  call<T>(cmd: string, params?: unknown): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ id, cmd, params });
    });
  }

  /** Closes the store (drops the schema / temporary directory) and waits for the process to end. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    try {
      await this.call('close');
    } finally {
      this.child.disconnect();
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
  }
}

/** Waits until the machine's 1-minute load average is below `threshold` (other work finished), at most `maxMs`. */
async function waitForQuiet(threshold: number | undefined, log: (line: string) => void, maxMs = 600_000): Promise<void> {
  if (threshold === undefined) return;
  const deadline = Date.now() + maxMs;
  let said = false;
  while (os.loadavg()[0]! >= threshold && Date.now() < deadline) {
    if (!said) log(`waiting for the load average (${os.loadavg()[0]!.toFixed(2)}) to fall below ${threshold}…`);
    said = true;
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
  if (os.loadavg()[0]! >= threshold) log(`load average still ${os.loadavg()[0]!.toFixed(2)} after ${maxMs / 60_000} minutes: measuring anyway`);
}

async function runEngine(engine: Engine, options: BenchOptions): Promise<EngineReport> {
  const { log } = options;
  await waitForQuiet(options.quietLoad, log);
  const loadavgBefore = os.loadavg().map((n) => Math.round(n * 100) / 100);
  log(`\n[${engine}] starting the service process; seeding ${options.items.toLocaleString('en')} items…`);
  const service = new ServiceProcess();
  // Every measured phase: the CPU time of the service process and of this one (the load generator)
  // beside the wall time, so that figures taken on a busy machine can still be compared per
  // operation; with a profile directory also one CPU profile of the service process per phase.
  const phases: Record<string, PhaseCpu> = {};
  const phase = async <T>(name: string, units: (value: T) => number, fn: () => Promise<T>): Promise<T> => {
    if (options.cpuProfileDir !== undefined) await service.call('profileStart');
    const pid = service.child.pid!;
    const serviceBefore = processCpuMs(pid);
    const meter = new CpuMeter({ service: pid });
    const selfBefore = process.cpuUsage();
    const started = performance.now();
    let value: T;
    try {
      value = await fn();
    } finally {
      if (options.cpuProfileDir !== undefined) {
        const file = await service.call<string>('profileStop', { file: path.join(options.cpuProfileDir, `${engine}-${name}.cpuprofile`) });
        log(`[${engine}] profile of ${name}: ${file}`);
      }
    }
    const wallMs = performance.now() - started;
    const self = process.cpuUsage(selfBefore);
    const serviceAfter = processCpuMs(pid);
    const serviceCpuMs = serviceBefore === undefined || serviceAfter === undefined ? Number.NaN : serviceAfter - serviceBefore;
    const n = units(value);
    phases[name] = { wallMs, serviceCpuMs, generatorCpuMs: (self.user + self.system) / 1000, units: n, serviceCpuMsPerUnit: serviceCpuMs / n, shares: meter.stop() };
    return value;
  };

  try {
    const init = await service.call<InitResult>('init', {
      engine, items: options.items, databaseUrl: options.databaseUrl, pgliteStorage: options.pgliteStorage,
    });
    log(`[${engine}] seeded ${init.seed.items} items in ${(init.seed.ms / 1000).toFixed(1)} s (${Math.round(init.seed.itemsPerSecond)} items/s); serving ${init.baseUrl}`);

    // 2. The 2000-item page, sequentially: HTTP, then the same work directly (warm-ups not measured).
    const pageUrl = `${init.baseUrl}/events?size=2000`;
    const pageQuery = { size: 2000 };
    await sequentialLatency(pageUrl, init.token, { iterations: options.latencyWarmup, warmup: 0 });
    const httpPage = await phase('page2000-http', (r) => r.n, () => sequentialLatency(pageUrl, init.token, { iterations: options.latencyIterations, warmup: 0 }));
    await service.call('directList', { collection: 'events', query: pageQuery, iterations: options.latencyWarmup, warmup: 0 });
    const directPage = await phase('page2000-direct', (r) => r.n, () => service.call<LatencySummary & { bytes: number }>('directList', { collection: 'events', query: pageQuery, iterations: options.latencyIterations, warmup: 0 }));
    log(`[${engine}] GET /events?size=2000 p50 ${httpPage.p50.toFixed(1)} ms (direct ${directPage.p50.toFixed(1)} ms)`);

    // 3. Full keyset backfill of every collection, request by request, then with the next request sent while the client parses (units: thousands of items).
    const backfillParams = { collections: ALL_COLLECTIONS, size: options.backfillSize, wfstatus: SYNC_STATUSES };
    const httpSync = await phase('backfill-http', (r) => r.items / 1000, () => httpBackfill(init.baseUrl, init.token, { ...backfillParams, prefetch: false }));
    const prefetchSync = await phase('backfill-http-prefetch', (r) => r.items / 1000, () => httpBackfill(init.baseUrl, init.token, { ...backfillParams, prefetch: true }));
    const directSync = await phase('backfill-direct', (r) => r.items / 1000, () => service.call<BackfillResult>('directBackfill', backfillParams));
    if (httpSync.items !== directSync.items) throw new Error(`[${engine}] backfill over HTTP saw ${httpSync.items} items, directly ${directSync.items}`);
    if (prefetchSync.items !== directSync.items) throw new Error(`[${engine}] prefetching backfill over HTTP saw ${prefetchSync.items} items, directly ${directSync.items}`);
    log(`[${engine}] backfill ${httpSync.items} items: ${Math.round(httpSync.itemsPerSecond)} items/s, prefetching ${Math.round(prefetchSync.itemsPerSecond)} items/s ` +
      `(${prefetchSync.mispredictions} mispredictions, ${prefetchSync.wastedRequests} wasted requests; direct ${Math.round(directSync.itemsPerSecond)} items/s)`);

    // 4. Requests/s of the 20-item page: autocannon, then the same concurrency directly.
    const url20 = `${init.baseUrl}/events?size=20`;
    const load = { token: init.token, connections: options.connections };
    if (options.warmupS > 0) await loadTest(url20, { ...load, durationS: options.warmupS });
    const http20 = await phase('rps20-http', (r) => r.requests, () => loadTest(url20, { ...load, durationS: options.durationS }));
    if (http20.non2xx > 0 || http20.errors > 0) throw new Error(`[${engine}] autocannon: ${http20.non2xx} non-2xx answers, ${http20.errors} errors`);
    const rpsParams = { collection: 'events' as const, query: { size: 20 }, concurrency: options.connections, warmupMs: 0 };
    if (options.warmupS > 0) await service.call('directRps', { ...rpsParams, durationMs: options.warmupS * 1000 });
    const direct20 = await phase('rps20-direct', (r) => r.requests, () => service.call<RpsResult>('directRps', { ...rpsParams, durationMs: options.durationS * 1000 }));
    log(`[${engine}] GET /events?size=20 ${Math.round(http20.requestsPerSecond)} req/s (direct ${Math.round(direct20.requestsPerSecond)}/s)`);
    const cpu = phases['rps20-http']!.shares;

    const result: EngineReport = {
      engine, location: init.location, openMs: init.openMs, migrateMs: init.migrateMs, seed: init.seed, loadavgBefore,
      page2000: { http: httpPage, direct: directPage, ratioP50: httpPage.p50 / directPage.p50, ratioP99: httpPage.p99 / directPage.p99, iterations: options.latencyIterations },
      backfill: { http: httpSync, prefetch: prefetchSync, direct: directSync, ratio: directSync.itemsPerSecond / httpSync.itemsPerSecond, ...backfillParams },
      rps20: { http: http20, direct: direct20, ratio: http20.requestsPerSecond / direct20.requestsPerSecond, cpu },
      phases,
    };

    // 5a. The client's backfill through the typed client, against this service (its issue asks for PostgreSQL).
    if (options.extras && engine === 'postgres') {
      result.client = await runExtra('client', 'client/bench.ts runClientBench', runClientBench, {
        baseUrl: init.baseUrl, token: init.token, size: options.backfillSize, print: prefixed(log, '[client] '),
      }, log);
    }
    return result;
  } finally {
    await service.stop();
  }
}

async function runMock(options: BenchOptions): Promise<MockReport> {
  await waitForQuiet(options.quietLoad, options.log);
  const flags = ['-v', 'silent'];
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const prism = await startPrism({ port, args: flags });
  try {
    const url = `${prism.url}/events?size=20`;
    const load = { token: 'any-bearer-value', connections: options.connections };
    if (options.warmupS > 0) await loadTest(url, { ...load, durationS: options.warmupS });
    const pid = prism.child.pid;
    const before = pid === undefined ? undefined : processCpuMs(pid);
    const meter = new CpuMeter({ mock: pid });
    const rps20 = await loadTest(url, { ...load, durationS: options.durationS });
    const cpu = meter.stop();
    const after = pid === undefined ? undefined : processCpuMs(pid);
    const mockCpuMsPerRequest = before === undefined || after === undefined ? Number.NaN : (after - before) / rps20.requests;
    if (rps20.non2xx > 0 || rps20.errors > 0) throw new Error(`Prism: ${rps20.non2xx} non-2xx answers, ${rps20.errors} errors`);
    options.log(`[mock] Prism GET /events?size=20 ${Math.round(rps20.requestsPerSecond)} req/s`);
    return { flags: ['mock', 'generated/openapi.yaml', '-p', String(port), '-h', '127.0.0.1', ...flags], env: { SCARF_ANALYTICS: 'false' }, startMs: prism.firstAnswerMs, rps20, cpu, mockCpuMsPerRequest };
  } finally {
    await prism.stop();
  }
}

/** Runs another component's bench; a failure is recorded in the report and logged, never fails the run. */
async function runExtra<A, T>(name: string, source: string, run: (args: A) => Promise<T>, args: A, log: (line: string) => void): Promise<ExtraResult<T>> {
  const started = performance.now();
  try {
    log(`[${name}] ${source}(${JSON.stringify(args, (key, value: unknown) => (key === 'token' ? '…' : value))})…`);
    const result = await run(args);
    return { source, ok: true, result, ms: performance.now() - started };
  } catch (error) {
    const cause = (error as Error).cause;
    const causeText = cause instanceof Error ? ` (cause: ${cause.message})` : cause === undefined ? '' : ` (cause: ${String(cause)})`;
    log(`[${name}] failed: ${(error as Error).message}${causeText}`);
    return { source, ok: false, error: `${(error as Error).stack ?? String(error)}${causeText}`, ms: performance.now() - started };
  }
}

const prefixed = (log: (line: string) => void, prefix: string) => (line: string) => log(`${prefix}${line}`);

export async function runBench(options: BenchOptions): Promise<BenchReport> {
  const { log } = options;
  const { log: _log, ...recorded } = options;
  const report: BenchReport = {
    startedAt: new Date().toISOString(),
    finishedAt: '',
    host: {
      cpus: os.availableParallelism(), cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version, platform: `${os.platform()} ${os.release()}`, loadavgAtStart: os.loadavg().map((n) => Math.round(n * 100) / 100),
    },
    options: recorded,
    engines: {},
    targets: [],
  };
  if (report.host.loadavgAtStart[0]! > report.host.cpus * 0.5) {
    log(`warning: load average ${report.host.loadavgAtStart.join(' ')} on ${report.host.cpus} cores: other work is running, figures will be low and noisy`);
  }
  if (options.cpuProfileDir !== undefined) await mkdir(options.cpuProfileDir, { recursive: true });

  for (const engine of options.engines) {
    report.engines[engine] = await runEngine(engine, options);
    if (options.extras) {
      report.engines[engine]!.webhooks = await runExtra(`webhooks (${engine})`, 'scripts/bench/webhooks.ts runWebhookBench', runWebhookBench, {
        engine, databaseUrl: options.databaseUrl, ...(options.quick ? { writes: 40 } : {}), print: prefixed(log, `[webhooks ${engine}] `),
      }, log);
    }
  }
  if (options.mock) {
    try {
      report.mock = await runMock(options);
    } catch (error) {
      report.mock = { error: (error as Error).message };
      log(`[mock] failed: ${(error as Error).message}`);
    }
  }
  if (options.extras) {
    report.images = await runExtra('images', 'scripts/bench/images.ts runImageBench', runImageBench, {
      ...(options.quick ? { coldRequests: 6, seconds: 0.5 } : {}), print: prefixed(log, '[images] '),
    }, log);
  }
  report.targets = checkTargets(report);
  report.finishedAt = new Date().toISOString();
  if (options.outDir !== undefined) {
    await mkdir(options.outDir, { recursive: true });
    const file = path.join(options.outDir, `${report.startedAt.replace(/[:.]/g, '-')}.json`);
    report.reportFile = file;
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  }
  return report;
}

export function checkTargets(report: BenchReport): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const mockRps = report.mock !== undefined && 'rps20' in report.mock ? report.mock.rps20.requestsPerSecond : undefined;
  for (const engine of Object.keys(report.engines) as Engine[]) {
    const e = report.engines[engine]!;
    const informative = engine !== 'postgres';
    checks.push({
      engine, informative, name: 'GET /events?size=2000 p50 vs direct', target: `≤ ${TARGETS.pageRatioMax}×`,
      measured: `${e.page2000.ratioP50.toFixed(2)}×`, met: e.page2000.ratioP50 <= TARGETS.pageRatioMax,
    });
    checks.push({
      engine, informative, name: BACKFILL_TARGET_NAME, target: `≥ ${TARGETS.backfillItemsPerSecondMin.toLocaleString('en')} items/s`,
      measured: `${Math.round(e.backfill.prefetch.itemsPerSecond).toLocaleString('en')} items/s`, met: e.backfill.prefetch.itemsPerSecond >= TARGETS.backfillItemsPerSecondMin,
    });
    if (e.webhooks?.ok === true) {
      const { streaming, drain } = e.webhooks.result;
      checks.push({
        engine, informative, name: 'webhooks write→receipt p50', target: `≤ ${WEBHOOK_TARGETS.p50MsMax} ms`,
        measured: `${streaming.latencyMs.p50} ms`, met: streaming.latencyMs.p50 <= WEBHOOK_TARGETS.p50MsMax,
      });
      checks.push({
        engine, informative, name: 'webhook deliveries/s (drain of queued changes)', target: `≥ ${WEBHOOK_TARGETS.deliveriesPerSecondMin}/s`,
        measured: `${Math.round(drain.itemsPerSecond)}/s`, met: drain.itemsPerSecond >= WEBHOOK_TARGETS.deliveriesPerSecondMin,
      });
    }
    if (mockRps !== undefined) {
      checks.push({
        engine, informative, name: 'GET /events?size=20 req/s vs Prism mock', target: '≥ 1× mock',
        measured: `${(e.rps20.http.requestsPerSecond / mockRps).toFixed(2)}×`, met: e.rps20.http.requestsPerSecond >= mockRps * TARGETS.serviceOverMockMin,
      });
    }
  }
  return checks;
}
