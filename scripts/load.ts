// `npm run load [-- options]`: 60 s of mixed traffic (autocannon, loopback) against ONE reference
// service process on PostgreSQL with the rate limiter on, as deployed. Simulated clients each have
// their own IP (TRUST_PROXY=loopback, one X-Forwarded-For per autocannon connection) and stay
// below the per-IP limit; one more IP floods a list endpoint to measure what the limiter lets
// through. Prints a table and writes reports/load/<timestamp>.json. Not a test (not in npm test):
// the figures depend on the machine; the script exits 1 when a 5xx or a limiter off by more than
// 5% shows up.

import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import sharp from 'sharp';
import { createInstanceGroup, type Instance } from '../reference-impl/test/support/scaleout/instance.ts';
import { runMigrations } from '../reference-impl/src/storage/migrate.ts';
import { openPostgresDb } from '../reference-impl/src/storage/postgresDb.ts';
import { autocannon, type AutocannonClient, type AutocannonRequest, type AutocannonResult } from './bench/http.ts';
import { seedAccounts, seedItems } from './bench/seed.ts';
import { processCpuMs } from './bench/stats.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const HELP = `Usage: npm run load -- [options]

  --duration S        seconds of load (default 60)
  --items N           items seeded before the run (default 5000)
  --flood-rate N      requests/s the flooding IP sends to GET /events?size=1 (default 100)
  --scale X           multiplies the connections of every mixed-traffic scenario (default 1)
  --database-url URL  PostgreSQL server (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test);
                      the run uses a fresh database and drops it afterwards
  --out DIR           where the JSON report goes (default reports/load)`;

interface Scenario {
  name: string;
  /** The endpoint, as in the p99 table. */
  endpoint: string;
  connections: number;
  /** Requests/s per connection (each connection is one client IP). */
  connectionRate: number;
  requests: AutocannonRequest[];
}

interface ScenarioResult {
  name: string;
  endpoint: string;
  connections: number;
  /** Simulated client IPs: one per connection, or the flood's one. */
  ips: number;
  requests: number;
  requestsPerSecond: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
}

interface RssSample {
  atS: number;
  rssMiB: number;
}

function parseOptions(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string', default: '60' },
      items: { type: 'string', default: '5000' },
      'flood-rate': { type: 'string', default: '100' },
      scale: { type: 'string', default: '1' },
      'database-url': { type: 'string' },
      out: { type: 'string', default: 'reports/load' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help' as const;
  const positive = (name: string, text: string) => {
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number (received: ${text})`);
    return n;
  };
  return {
    durationS: positive('duration', values.duration),
    items: Math.floor(positive('items', values.items)),
    floodRate: positive('flood-rate', values['flood-rate']),
    scale: positive('scale', values.scale),
    databaseUrl: values['database-url'] ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    outDir: path.resolve(REPO_ROOT, values.out),
  };
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Resident set size of a process, MiB (Linux /proc). */
async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
  return kb / 1024;
}

let ipCounter = 0;
/** A client address per connection, from 198.18.0.0/15 (benchmarking range). */
function nextIp(): string {
  ipCounter++;
  return `198.18.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

function withIpPerConnection(requests: AutocannonRequest[], fixedIp?: string): (client: AutocannonClient) => void {
  return (client) => {
    const ip = fixedIp ?? nextIp();
    client.setRequests(requests.map((r) => ({ ...r, headers: { ...r.headers, 'x-forwarded-for': ip } })));
  };
}

async function uploadAssets(baseUrl: string, token: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const png = await sharp({
      create: { width: 64 + i, height: 48, channels: 3, background: { r: 20 * i, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `load-${i}.png`);
    form.set('title', `Load test image ${i}`);
    const answer = await fetch(`${baseUrl}/assets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (answer.status !== 201) throw new Error(`asset upload: ${answer.status} ${await answer.text()}`);
  }
}

async function sampleIds(baseUrl: string, token: string, collection: string, count: number): Promise<string[]> {
  const answer = await fetch(`${baseUrl}/${collection}?size=${count}&wfstatus=approved`, {
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': nextIp() },
  });
  if (answer.status !== 200) throw new Error(`GET /${collection}: ${answer.status}`);
  return ((await answer.json()) as Array<{ id: string }>).map((item) => item.id);
}

function scenarios(token: string, ids: Record<string, string[]>, scale: number): Scenario[] {
  const auth = { authorization: `Bearer ${token}` };
  const get = (p: string): AutocannonRequest => ({ method: 'GET', path: `/api${p}`, headers: auth });
  const c = (n: number) => Math.max(1, Math.round(n * scale));
  const listParams = [
    'size=20',
    'size=100&sortField=title&sortOrder=ASC',
    'size=50&sortField=creationdate&page=2',
    'size=20&wfstatus=approved,archived',
    'size=20&published=true&sortField=trcid',
    'size=200',
    'size=20&lastupdated=2020-01-01T00:00:00Z&sortOrder=ASC',
    'size=10&page=5&sortField=id',
  ];
  const details = Object.entries(ids).flatMap(([collection, list]) => list.map((id) => get(`/${collection}/${id}`)));
  const writeBody = JSON.stringify({
    userorganisation: 'amsterdam-marketing',
    wfstatus: 'approved',
    trcItemDetails: [{ lang: 'nl', title: 'Belasting [<id>]' }],
    calendar: { singleDates: [{ date: '2027-08-14', when: [{ timestart: '20:15', timeend: '21:30' }] }] },
  });
  // connectionRate stays below 20/s: these clients should never meet the limiter.
  return [
    {
      name: 'events list',
      endpoint: 'GET /events',
      connections: c(6),
      connectionRate: 6,
      requests: listParams.map((q) => get(`/events?${q}`)),
    },
    {
      name: 'locations list',
      endpoint: 'GET /locations',
      connections: c(3),
      connectionRate: 6,
      requests: listParams.map((q) => get(`/locations?${q}`)),
    },
    {
      name: 'other lists',
      endpoint: 'GET /routes|/venues|/eventgroups',
      connections: c(3),
      connectionRate: 6,
      requests: ['routes', 'venues', 'eventgroups'].flatMap((col) =>
        listParams.slice(0, 4).map((q) => get(`/${col}?${q}`)),
      ),
    },
    {
      name: 'detail reads',
      endpoint: 'GET /{collection}/{id}',
      connections: c(6),
      connectionRate: 10,
      requests: details,
    },
    {
      name: 'dictionary root',
      endpoint: 'GET /dictionary',
      connections: c(1),
      connectionRate: 5,
      requests: [get('/dictionary')],
    },
    {
      name: 'ontologies',
      endpoint: 'GET /dictionary/*Ontology',
      connections: c(2),
      connectionRate: 4,
      requests: [
        get('/dictionary/propertiesOntology'),
        get('/dictionary/categorizationOntology'),
        get('/dictionary/userorganisations'),
      ],
    },
    {
      name: 'assets list',
      endpoint: 'GET /assets',
      connections: c(2),
      connectionRate: 5,
      requests: [
        get('/assets?size=20'),
        get('/assets?size=5&sortField=name&sortOrder=asc'),
        get('/assets?page=1&size=3'),
      ],
    },
    {
      name: 'writes',
      endpoint: 'POST /events',
      connections: c(1),
      connectionRate: 2,
      requests: [
        {
          method: 'POST',
          path: '/api/events',
          headers: { ...auth, 'content-type': 'application/json' },
          body: writeBody,
        },
      ],
    },
  ];
}

function resultOf(
  scenario: Scenario,
  result: AutocannonResult,
  durationS: number,
  ips = scenario.connections,
): ScenarioResult {
  return {
    name: scenario.name,
    endpoint: scenario.endpoint,
    connections: scenario.connections,
    ips,
    requests: result.requests.total,
    requestsPerSecond: Math.round((result.requests.total / durationS) * 10) / 10,
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]),
    ),
    errors: result.errors,
    timeouts: result.timeouts,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
  };
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map(
      (r, ri) =>
        r.map((cell, i) => (i === 0 || i === 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ') +
        (ri === 0 ? `\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : ''),
    )
    .join('\n');
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if (options === 'help') {
    console.log(HELP);
    return 0;
  }
  const log = (line: string) => console.log(line);
  const loadBefore = os.loadavg();
  const dbName = `load_${randomBytes(5).toString('hex')}`;
  const dbUrl = new URL(options.databaseUrl);
  dbUrl.pathname = `/${dbName}`;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'load-'));
  const group = createInstanceGroup();
  await admin(options.databaseUrl, `CREATE DATABASE ${dbName}`);
  try {
    log(`Seeding ${options.items} items into database ${dbName} …`);
    const db = await openPostgresDb({ connectionString: dbUrl.toString(), max: 4 });
    let token: string;
    try {
      await runMigrations(db);
      token = (await seedAccounts(db)).token;
      const seeded = await seedItems(db, { items: options.items });
      log(`  ${seeded.items} items in ${(seeded.ms / 1000).toFixed(1)} s`);
    } finally {
      await db.close();
    }

    const service: Instance = await group.start('service', {
      DATABASE_URL: dbUrl.toString(),
      DATA_DIR: dataDir,
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_ENABLED: 'true',
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
    });
    const origin = service.baseUrl.slice(0, -'/api'.length);
    log(`Service pid ${service.pid} at ${service.baseUrl}`);
    await uploadAssets(service.baseUrl, token, 8);
    const ids: Record<string, string[]> = {};
    for (const collection of ['events', 'locations', 'routes', 'venues', 'eventgroups'])
      ids[collection] = await sampleIds(service.baseUrl, token, collection, 40);

    const rss: RssSample[] = [];
    const rssAtStart = await rssMiB(service.pid);
    const generatorCpuAtStart = process.cpuUsage();
    const cpuMsAtStart = processCpuMs(service.pid) ?? Number.NaN;
    const startedAt = performance.now();
    const sampler = setInterval(() => {
      rssMiB(service.pid).then(
        (mib) =>
          rss.push({ atS: Math.round((performance.now() - startedAt) / 100) / 10, rssMiB: Math.round(mib * 10) / 10 }),
        () => {},
      );
    }, 1000);

    const mixed = scenarios(token, ids, options.scale);
    log(
      `Load: ${options.durationS} s, ${mixed.reduce((n, s) => n + s.connections, 0)} client IPs of mixed traffic + 1 IP flooding GET /events?size=1 at ${options.floodRate}/s …`,
    );
    const runs = mixed.map((scenario) =>
      autocannon({
        url: origin,
        connections: scenario.connections,
        connectionRate: scenario.connectionRate,
        duration: options.durationS,
        timeout: 30,
        requests: scenario.requests,
        setupClient: withIpPerConnection(scenario.requests),
        idReplacement: scenario.name === 'writes',
      }),
    );
    // The flood: one client IP over a few connections; its accepted count is the limiter's verdict.
    const floodIp = '198.19.255.1';
    const floodRequests: AutocannonRequest[] = [
      { method: 'GET', path: '/api/events?size=1', headers: { authorization: `Bearer ${token}` } },
    ];
    // Enough connections that the flood keeps its rate even when answers take half a second.
    const floodConnections = Math.max(4, Math.ceil(options.floodRate / 2));
    const flood = autocannon({
      url: origin,
      connections: floodConnections,
      overallRate: options.floodRate,
      duration: options.durationS,
      timeout: 30,
      requests: floodRequests,
      setupClient: withIpPerConnection(floodRequests, floodIp),
    });
    let floodFirst = Infinity;
    let floodLast = -Infinity;
    let floodAccepted = 0;
    flood.on('response', (_client, statusCode) => {
      const now = performance.now();
      floodFirst = Math.min(floodFirst, now);
      floodLast = Math.max(floodLast, now);
      if (statusCode === 200) floodAccepted++;
    });
    const results = await Promise.all(runs);
    const floodResult = await flood;
    clearInterval(sampler);
    const elapsedS = (performance.now() - startedAt) / 1000;
    const rssAtEnd = await rssMiB(service.pid);
    const cpuUsed = ((processCpuMs(service.pid) ?? Number.NaN) - cpuMsAtStart) / 1000;
    const generatorCpu = process.cpuUsage(generatorCpuAtStart);
    const generatorCpuSeconds = (generatorCpu.user + generatorCpu.system) / 1e6;
    const loadAfter = os.loadavg();

    // Settle, then once more: garbage the run left behind should be collectable.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const rssSettled = await rssMiB(service.pid);

    const scenarioResults = mixed.map((scenario, i) => resultOf(scenario, results[i]!, options.durationS));
    const floodSummary = resultOf(
      {
        name: 'flood (one IP)',
        endpoint: 'GET /events?size=1',
        connections: floodConnections,
        connectionRate: 0,
        requests: floodRequests,
      },
      floodResult,
      options.durationS,
      1,
    );
    const floodWindowS = (floodLast - floodFirst) / 1000;
    // DEC-RATE-001: 41 at once from rest, then one per 50 ms.
    const expectedAccepted = 41 + Math.floor(floodWindowS * 20);
    const nominalAccepted = 40 + 20 * options.durationS;
    const deviation = (floodAccepted - nominalAccepted) / nominalAccepted;
    const fiveXx = [...scenarioResults, floodSummary].reduce(
      (n, r) =>
        n +
        Object.entries(r.statuses)
          .filter(([code]) => code.startsWith('5'))
          .reduce((m, [, count]) => m + count, 0),
      0,
    );
    const unexpected429 = scenarioResults.reduce((n, r) => n + (r.statuses['429'] ?? 0), 0);
    const rssAt10 = rss.find((s) => s.atS >= 10)?.rssMiB;

    const rows = [
      [
        'scenario',
        'endpoint',
        'IPs',
        'requests',
        'req/s',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'max ms',
        'statuses',
        'errors',
      ],
    ];
    for (const r of [...scenarioResults, floodSummary]) {
      rows.push([
        r.name,
        r.endpoint,
        String(r.ips),
        String(r.requests),
        String(r.requestsPerSecond),
        String(r.latencyMs.p50),
        String(r.latencyMs.p90),
        String(r.latencyMs.p99),
        String(r.latencyMs.max),
        Object.entries(r.statuses)
          .map(([code, n]) => `${code}:${n}`)
          .join(' '),
        String(r.errors + r.timeouts),
      ]);
    }
    const report = {
      at: new Date().toISOString(),
      host: {
        cpus: os.cpus().length,
        model: os.cpus()[0]?.model,
        loadAverageBefore: loadBefore,
        loadAverageAfter: loadAfter,
        node: process.version,
      },
      options: {
        durationS: options.durationS,
        items: options.items,
        floodRate: options.floodRate,
        scale: options.scale,
      },
      service: {
        engine: 'postgres',
        rateLimit: 'memory (one instance)',
        pid: service.pid,
        cpuSeconds: Math.round(cpuUsed * 10) / 10,
        cpuPercentOfOneCore: Math.round((cpuUsed / elapsedS) * 100),
      },
      loadGenerator: {
        cpuSeconds: Math.round(generatorCpuSeconds * 10) / 10,
        cpuPercentOfOneCore: Math.round((generatorCpuSeconds / elapsedS) * 100),
        note: 'autocannon in this process, on the same cores as the service and PostgreSQL; latencies are corrected for coordinated omission (autocannon does so when a rate is set)',
      },
      memory: {
        rssStartMiB: Math.round(rssAtStart * 10) / 10,
        rssAt10sMiB: rssAt10,
        rssEndMiB: Math.round(rssAtEnd * 10) / 10,
        rssAfter5sIdleMiB: Math.round(rssSettled * 10) / 10,
        maxMiB: Math.max(...rss.map((s) => s.rssMiB)),
        samples: rss,
      },
      scenarios: scenarioResults,
      flood: {
        ...floodSummary,
        ip: floodIp,
        windowS: Math.round(floodWindowS * 1000) / 1000,
        accepted: floodAccepted,
        expectedFromWindow: expectedAccepted,
        nominal: nominalAccepted,
        deviationFromNominal: Math.round(deviation * 10000) / 10000,
      },
      verdict: { fiveXx, unexpected429, limiterWithin5Percent: Math.abs(deviation) <= 0.05 },
    };

    log('');
    log(table(rows));
    log('');
    log(
      `Service: RSS ${report.memory.rssStartMiB} MiB before the load, ${rssAt10 ?? '?'} MiB after 10 s, ${report.memory.rssEndMiB} MiB at the end (max ${report.memory.maxMiB}), ${report.memory.rssAfter5sIdleMiB} MiB after 5 s idle; CPU ${report.service.cpuSeconds} s (${report.service.cpuPercentOfOneCore}% of one core); load generator CPU ${report.loadGenerator.cpuPercentOfOneCore}% of one core.`,
    );
    log(
      `Flood from one IP: ${floodSummary.requests} requests over ${floodWindowS.toFixed(2)} s, ${floodAccepted} accepted (200), ${floodSummary.statuses['429'] ?? 0} refused (429). ` +
        `DEC-RATE-001 expects 41 + 20/s x ${floodWindowS.toFixed(2)} s = ${expectedAccepted} for this window; nominal 40 + 20 x ${options.durationS} = ${nominalAccepted}: deviation ${(deviation * 100).toFixed(2)}%.`,
    );
    log(`5xx answers: ${fiveXx}. 429 answers to the clients below the limit: ${unexpected429}.`);
    log(
      `Machine: ${report.host.cpus} cores, load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after (shared with other work: latencies include its noise).`,
    );
    await mkdir(options.outDir, { recursive: true });
    const file = path.join(options.outDir, `${report.at.replace(/[:.]/g, '-')}.json`);
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
    log(`Report: ${path.relative(REPO_ROOT, file)}`);
    return fiveXx === 0 && Math.abs(deviation) <= 0.05 ? 0 : 1;
  } finally {
    await group.closeAll();
    await admin(options.databaseUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
