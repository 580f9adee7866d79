// The bench's printed table.

import type { PhaseFigures } from './images.ts';
import type { HttpBackfillResult } from './http.ts';
import {
  BACKFILL_TARGET_NAME,
  PAGE_FIRST_BYTE_TARGET_NAME,
  clientReference,
  type BenchReport,
  type EngineReport,
  type ExtraResult,
  type TargetCheck,
} from './run.ts';

const ENGINE_NAMES = { pglite: 'PGlite (embedded)', postgres: 'PostgreSQL' } as const;

const int = (n: number): string => Math.round(n).toLocaleString('en');
/** Milliseconds as the report prints them: one decimal below 100 ms, whole above. */
export const ms = (n: number): string => (n >= 100 ? `${int(n)} ms` : `${n.toFixed(1)} ms`);
const times = (n: number): string => `${n.toFixed(2)}×`;
const bytes = (n: number): string =>
  n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} kB` : `${n} B`;

function table(rows: readonly (readonly string[])[], header: readonly string[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function mark(check: TargetCheck | undefined): string {
  if (check === undefined) return '';
  const verdict = check.met ? 'PASS' : 'FAIL';
  return check.informative ? `${check.target} (${verdict}, info)` : `${check.target} ${verdict}`;
}

function engineSection(e: EngineReport, report: BenchReport): string {
  const check = (name: string) => report.targets.find((t) => t.engine === e.engine && t.name === name);
  const { seed } = e;
  const { http: http20, mock } = e.rps20;
  const cpuOf = (http: string, direct: string, unit: string): string => cpuColumn(e, http, direct, unit);
  const rows: string[][] = [
    [
      `GET /events?size=2000 p50 (sequential, Cache-Control: no-cache, the body counted as it arrives${alternating(e.page2000.rounds.length)})`,
      ms(e.page2000.http.p50),
      ms(e.page2000.direct.p50),
      times(e.page2000.ratioP50),
      cpuOf('page2000-http', 'page2000-direct', 'request'),
      mark(check('GET /events?size=2000 p50 vs direct')),
    ],
    [
      '  its first byte (p50, from sending the request): the page is sent while it is written',
      ms(e.page2000.firstByte.p50),
      '',
      `${e.page2000.firstByteShare.toFixed(2)} of p50`,
      '',
      mark(check(PAGE_FIRST_BYTE_TARGET_NAME)),
    ],
    machinePageRow(e, report.host.cpus),
    [
      '  the same requests read by undici (as a Node client takes the body in)',
      ms(e.page2000.undici.p50),
      ms(e.page2000.direct.p50),
      times(e.page2000.undici.p50 / e.page2000.direct.p50),
      cpuOf('page2000-http-undici', 'page2000-direct', 'request'),
      '',
    ],
    [
      'GET /events?size=2000 p99',
      ms(e.page2000.http.p99),
      ms(e.page2000.direct.p99),
      times(e.page2000.ratioP99),
      '',
      '',
    ],
    [
      `keyset backfill, size=${e.backfill.size}, request by request, JSON.parse of every page (${int(e.backfill.http.items)} items, ${e.backfill.http.pages} pages)`,
      `${int(e.backfill.http.itemsPerSecond)} items/s`,
      `${int(e.backfill.direct.itemsPerSecond)} items/s`,
      times(e.backfill.ratio),
      cpuOf('backfill-http', 'backfill-direct', '1000 items'),
      '',
    ],
    backfillRow(
      e,
      '  the same requests, the next one sent while the client parses a page',
      e.backfill.prefetch,
      'backfill-http-prefetch',
      '',
    ),
    backfillRow(
      e,
      "  the same prefetching, the client reading each item's id and lastupdated",
      e.backfill.keys,
      'backfill-http-keys',
      mark(check(BACKFILL_TARGET_NAME)),
    ),
    [
      `GET /events?size=20, ${http20.connections} connections, ${http20.durationS.toFixed(0)} s${e.rps20.runs.length > 1 ? `, median of ${e.rps20.runs.length} runs` : ''}`,
      `${int(http20.requestsPerSecond)} req/s`,
      `${int(e.rps20.direct.requestsPerSecond)} req/s`,
      times(1 / e.rps20.ratio),
      cpuOf('rps20-http', 'rps20-direct', 'request'),
      '',
    ],
  ];
  const fresh20 = e.rps20.fresh.http;
  rows.push([
    '  the same with Cache-Control: no-cache (every answer read from the store)',
    `${int(fresh20.requestsPerSecond)} req/s`,
    `${int(e.rps20.direct.requestsPerSecond)} req/s`,
    times(e.rps20.direct.requestsPerSecond / fresh20.requestsPerSecond),
    cpuOf('rps20-http-fresh', 'rps20-direct', 'request'),
    '',
  ]);
  if (mock !== undefined) {
    const rounds = mock.rounds.length === 1 ? '1 round' : `median of ${mock.rounds.length} interleaved rounds`;
    rows.push([
      `  the same request, service ÷ Prism mock (${rounds})`,
      `${int(http20.requestsPerSecond)} ÷ ${int(mock.rps20.requestsPerSecond)}`,
      '',
      times(mock.ratio),
      '',
      mark(check('GET /events?size=20 req/s vs Prism mock')),
    ]);
    rows.push([
      '  with no-cache, service ÷ Prism mock',
      `${int(fresh20.requestsPerSecond)} ÷ ${int(mock.rps20.requestsPerSecond)}`,
      '',
      times(mock.freshRatio),
      '',
      '',
    ]);
  }
  if (e.client !== undefined) rows.push(...clientRows(e, check));
  if (e.webhooks !== undefined) rows.push(...webhookRows(e, check));
  const header =
    `${ENGINE_NAMES[e.engine]}: ${e.location}. Seeded ${int(seed.items)} items in ${(seed.ms / 1000).toFixed(1)} s ` +
    `(${int(seed.itemsPerSecond)} items/s, bulk insert with the item stamp rule, ${((seed.renderMs ?? 0) / 1000).toFixed(1)} s of it rendering each item for its stored rendering; ` +
    `doc ${bytes(seed.avgDocBytes)} on average; load average before: ${e.loadavgBefore.join(' ')})`;
  const cpu = e.rps20.cpu;
  const ratios = mock?.rounds.map((r) => r.ratio) ?? [];
  const roundsLine =
    mock !== undefined
      ? `\nrounds (service/service no-cache/Prism req/s): ${mock.rounds.map((r) => `${int(r.service)}/${int(r.fresh)}/${int(r.mock)}`).join(' · ')}; per-round ratio ${ratios.length === 1 ? times(ratios[0]!) : `${Math.min(...ratios).toFixed(2)}–${times(Math.max(...ratios))}`}`
      : e.rps20.runs.length > 1
        ? `\nruns (service req/s): ${e.rps20.runs.map((r) => int(r.requestsPerSecond)).join(' · ')}`
        : '';
  const pageRatios = e.page2000.rounds.map((r) => r.http / r.direct);
  const pageRoundsLine =
    e.page2000.rounds.length > 1
      ? `\nsize=2000 rounds (p50 ms, HTTP/direct/undici): ${e.page2000.rounds.map((r) => `${r.http.toFixed(1)}/${r.direct.toFixed(1)}/${r.undici.toFixed(1)}`).join(' · ')}; per-round ratio ${Math.min(...pageRatios).toFixed(2)}–${times(Math.max(...pageRatios))}`
      : '';
  const clientLine =
    e.clientRounds !== undefined
      ? `\n* beside the client rows: the bench's prefetching JSON.parse backfill, run before them in each of their ${roundsOf(e.clientRounds.length)} (not direct); ` +
        `each client row is its median run, its ratio median ÷ median.\nclient rounds (items/s, bench/syncItems/content-sync; content-sync again, s): ${e.clientRounds
          .map(
            (r) =>
              [r.prefetch, r.syncItems, r.contentSync].map((n) => (n === undefined ? '–' : int(n))).join('/') +
              `; ${r.incrementalSeconds === undefined ? '–' : r.incrementalSeconds.toFixed(2)}`,
          )
          .join(' · ')}`
      : '';
  const runsNote = e.rps20.runs.length > 1 ? ` (its ${e.rps20.runs.length} runs together)` : '';
  const cpuLine =
    `CPU during the size=20 autocannon runs of the service${runsNote}: service process ${cpu.service ?? '?'}% of one core, load generator (autocannon, this process) ${cpu.loadGenerator}%, ` +
    `whole machine ${cpu.machineBusy ?? '?'}% busy (PostgreSQL's own processes are in the machine figure).`;
  const net = e.backfill.http.items / ((e.backfill.http.ms - e.backfill.http.readMs) / 1000);
  const pageLine =
    `Sizes: size=2000 body ${bytes(e.page2000.http.bytes)}; size=20 answer ${bytes(e.rps20.http.bytesPerRequest)}; the backfill moved ${bytes(e.backfill.http.bytes)}, ` +
    `and the sync client's JSON.parse took ${ms(e.backfill.http.readMs)} of its ${ms(e.backfill.http.ms)} (without it: ${int(net)} items/s).`;
  const { prefetch: p, keys: k } = e.backfill;
  const prefetchLine =
    `Prefetching backfill: the procedure's own requests; once a page's body has arrived, the client sends the next request with the mark read from the body's tail ` +
    `(the last "lastupdated" member), then reads the page while the service works on that request, and checks the mark: ` +
    `${p.pages} pages used, ${p.mispredictions} mispredictions (answer discarded, request sent again with the real mark), ` +
    `${p.wastedRequests} wasted requests (sent after a collection's short page, answer discarded). Reading took ${ms(p.readMs)} of ${ms(p.ms)} with JSON.parse, ` +
    `${ms(k.readMs)} of ${ms(k.ms)} reading each item's id and lastupdated (every byte checked against the JSON grammar, no objects built; ${k.mispredictions} mispredictions).`;
  return `${header}\n${table(
    rows.map((r) => (r.length === 5 ? [...r.slice(0, 4), '', r[4]!] : r)),
    ['measure', 'HTTP', 'direct', 'HTTP cost', 'service CPU, HTTP | direct', 'target'],
  )}${pageRoundsLine}${roundsLine}${clientLine}\n${cpuLine}\n${pageLine}\n${prefetchLine}`;
}

const roundsOf = (n: number): string => (n === 1 ? '1 round' : `${n} rounds`);
const alternating = (rounds: number): string => (rounds > 1 ? `; ${rounds} rounds alternating with direct` : '');

function cpuColumn(e: EngineReport, http: string, direct: string, unit: string): string {
  const h = e.phases[http]?.serviceCpuMsPerUnit,
    d = e.phases[direct]?.serviceCpuMsPerUnit;
  if (h === undefined || d === undefined || Number.isNaN(h) || Number.isNaN(d)) return '';
  return `${h.toFixed(1)} | ${d.toFixed(1)} ms/${unit}`;
}

/**
 * The machine's CPU per page, every process together: the page over HTTP can be no shorter than
 * this ÷ the cores, so when the direct page already keeps them busy the ratio is the transfer's CPU.
 */
function machinePageRow(e: EngineReport, cores: number): string[] {
  const http = e.phases['page2000-http'],
    direct = e.phases['page2000-direct'];
  const label = `  the machine's CPU per page (the service, PostgreSQL and the reader together, on ${cores} cores)`;
  if (
    http === undefined ||
    direct === undefined ||
    Number.isNaN(http.machineCpuMs) ||
    Number.isNaN(direct.machineCpuMs)
  )
    return [label, 'unavailable', '', '', '', ''];
  return [
    label,
    ms(http.machineCpuMsPerUnit),
    ms(direct.machineCpuMsPerUnit),
    times(http.machineCpuMsPerUnit / direct.machineCpuMsPerUnit),
    `cores busy ${http.shares.machineBusy ?? '?'}% | ${direct.shares.machineBusy ?? '?'}%`,
    '',
  ];
}

/** A backfill variant's row, against the direct backfill. */
function backfillRow(
  e: EngineReport,
  label: string,
  result: HttpBackfillResult,
  phase: string,
  target: string,
): string[] {
  const direct = e.backfill.direct.itemsPerSecond;
  return [
    label,
    `${int(result.itemsPerSecond)} items/s`,
    `${int(direct)} items/s`,
    times(direct / result.itemsPerSecond),
    cpuColumn(e, phase, 'backfill-direct', '1000 items'),
    target,
  ];
}

/** The one row of another component's bench that failed. */
function failedRow(label: string, extra: ExtraResult<unknown> & { ok: false }): string[] {
  return [`${label}: failed (${extra.error.split('\n')[0]})`, '', '', '', ''];
}

function clientRows(e: EngineReport, check: (name: string) => TargetCheck | undefined): string[][] {
  const prefetch = clientReference(e);
  const beside = `${int(prefetch)} items/s*`;
  const rows: string[][] = [];
  const client = e.client!;
  if (!client.ok) rows.push(failedRow('client backfill', client));
  else {
    const r = client.result;
    rows.push([
      `client: syncItems of the typed client into its memory store (${int(r.items)} items, ${r.pages} pages)`,
      `${int(r.itemsPerSecond)} items/s`,
      beside,
      times(r.itemsPerSecond / prefetch),
      '',
      [
        mark(check('syncItems (memory store) vs the prefetching JSON.parse backfill')),
        mark(check('syncItems (memory store) backfill')),
      ].join(', '),
    ]);
  }
  const sync = e.contentSync;
  if (sync === undefined) return rows;
  if (!sync.ok) return [...rows, failedRow('content-sync', sync)];
  const { backfill, incremental } = sync.result;
  rows.push(
    [
      `client: content-sync --database-url into PostgreSQL, the command from spawn to exit (${int(backfill.items)} items, ${int(backfill.rows)} rows stored; the run itself ${backfill.runSeconds.toFixed(1)} s)`,
      `${int(backfill.itemsPerSecond)} items/s`,
      beside,
      times(backfill.itemsPerSecond / prefetch),
      '',
      mark(check('content-sync --database-url backfill vs the prefetching JSON.parse backfill')),
    ],
    [
      `client: content-sync again after ${int(incremental.changed)} changed items (${int(incremental.items)} received, ${incremental.pages} pages; the run itself ${incremental.runSeconds.toFixed(2)} s)`,
      `${incremental.seconds.toFixed(2)} s`,
      '',
      '',
      '',
      mark(check(`content-sync incremental run after ${int(incremental.changed)} changed items`)),
    ],
  );
  return rows;
}

function webhookRows(e: EngineReport, check: (name: string) => TargetCheck | undefined): string[][] {
  const webhooks = e.webhooks!;
  if (!webhooks.ok) return [failedRow('webhooks', webhooks)];
  const { writes, streaming, drain } = webhooks.result;
  return [
    [
      `webhooks: write→receipt p50 (${int(writes)} writes, streaming)`,
      ms(streaming.latencyMs.p50),
      '',
      '',
      mark(check('webhooks write→receipt p50')),
    ],
    ['webhooks: write→receipt p99', ms(streaming.latencyMs.p99), '', '', ''],
    [
      'webhooks: deliveries while writing',
      `${int(streaming.itemsPerSecond)} items/s`,
      `${int(streaming.postsPerSecond)} POSTs/s`,
      '',
      '',
    ],
    [
      'webhooks: deliveries draining a queued backlog',
      `${int(drain.itemsPerSecond)} items/s`,
      `${int(drain.postsPerSecond)} POSTs/s`,
      '',
      mark(check('webhook deliveries/s (drain of queued changes)')),
    ],
  ];
}

function imageRows(images: NonNullable<BenchReport['images']>): string[][] {
  if (!images.ok) return [failedRow('images', images)];
  const r = images.result;
  const row = (label: string, p: PhaseFigures) => [
    label,
    `${int(p.requestsPerSecond)} req/s`,
    ms(p.latencyMs.p50),
    ms(p.latencyMs.p99),
    `${int(p.requests)} requests`,
  ];
  return [
    row(
      `resize, every request a new variant (${r.source.width}×${r.source.height} JPEG, ${r.concurrency} in flight)`,
      r.cold,
    ),
    row('the same variant again (variant cache)', r.cached),
    row('revalidation (If-None-Match → 304)', r.revalidated),
  ];
}

export function formatReport(report: BenchReport): string {
  const out: string[] = [];
  const { host, options } = report;
  out.push(
    `Content Service bench, ${report.startedAt} → ${report.finishedAt}${options.quick ? ' (QUICK smoke run: figures are not meaningful)' : ''}`,
  );
  out.push(
    `Host: ${host.cpus} cores (${host.cpuModel}), ${host.memoryGiB} GiB, Node ${host.node}, ${host.platform}; load average at start ${host.loadavgAtStart.join(' ')}.`,
  );
  out.push(
    `The load generator (undici for sequential requests and the backfill, autocannon for req/s) runs in this process on the same ${host.cpus} cores as the service process, PostgreSQL and Prism: ` +
      'every HTTP figure pays for its client too. "direct" = the work of the list route inside the service process, no HTTP: the SQL query (streamRenderedItems) and the JSON of the page written from the stored renderings as the rows arrive (renderPage; items without a current one rendered live). ' +
      '"HTTP cost" = time through HTTP ÷ time direct (1.00× = no overhead). Rate limiter off (RATE_LIMIT_ENABLED=false), LOG_LEVEL=silent.',
  );
  for (const engine of options.engines) {
    const e = report.engines[engine];
    if (e !== undefined) out.push('', engineSection(e, report));
  }
  const mocks = options.engines.flatMap((engine) => {
    const m = report.engines[engine]?.rps20.mock;
    return m === undefined ? [] : [{ engine, m }];
  });
  if (mocks.length > 0 || report.mock !== undefined) out.push('');
  if (mocks.length > 0) {
    const flags = mocks[0]!.m.flags.map((flag, i, all) => (all[i - 1] === '-p' ? '<port>' : flag));
    out.push(
      `Prism mock 5.16 (stateless, static examples): prism ${flags.join(' ')}, env SCARF_ANALYTICS=false, no -m; paths without /api. ` +
        "Started beside each engine's service process; its size=20 runs alternate with the service's (rounds above). Median run, CPU over all its runs:",
    );
    out.push(
      table(
        mocks.map(({ engine, m }) => [
          `beside ${ENGINE_NAMES[engine]}: GET /events?size=20, ${m.rps20.connections} connections, ${m.rps20.durationS.toFixed(0)} s, ${m.runs.length} run${m.runs.length === 1 ? '' : 's'}`,
          `${(m.startMs / 1000).toFixed(1)} s`,
          `${int(m.rps20.requestsPerSecond)} req/s`,
          `p50 ${m.rps20.latencyP50} ms, p99 ${m.rps20.latencyP99} ms`,
          bytes(m.rps20.bytesPerRequest),
          `mock ${m.cpu.mock ?? '?'}%, generator ${m.cpu.loadGenerator}%`,
          Number.isNaN(m.mockCpuMsPerRequest) ? '' : `${m.mockCpuMsPerRequest.toFixed(2)} ms/request`,
        ]),
        ['measure', 'started in', 'HTTP', 'latency', 'answer', 'CPU (% of a core)', 'Prism CPU'],
      ),
    );
  }
  if (report.mock !== undefined) out.push(`Prism mock: failed (${report.mock.error})`);
  if (report.images !== undefined)
    out.push(
      '',
      'Images (scripts/bench/images.ts: the app on PGlite in memory, files on disk):',
      table(imageRows(report.images), ['measure', 'HTTP', 'p50', 'p99', 'sample']),
    );
  out.push('', 'Targets (set for PostgreSQL; PGlite shown for information):');
  for (const t of report.targets)
    out.push(
      `  ${t.met ? 'PASS' : 'FAIL'} [${t.engine}${t.informative ? ', info' : ''}] ${t.name}: ${t.measured} (target ${t.target})`,
    );
  if (report.reportFile !== undefined) out.push('', `JSON: ${report.reportFile}`);
  return out.join('\n');
}
