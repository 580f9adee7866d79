import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../bench.ts';
import { countFresh } from './protocol.ts';
import { formatReport, ms } from './report.ts';
import { medianExtra, medianRun, runBench, type BenchReport, type ExtraResult } from './run.ts';
import { median, percentile, summarise } from './stats.ts';

// The bench is not a test (npm run bench): this only proves that it runs end to end, in quick mode
// on PGlite with a few hundred items and the Prism mock. No timing is asserted.

describe('npm run bench -- --quick', () => {
  it('when run on PGlite with a few hundred items and the mock, then it seeds, measures HTTP and direct work in alternating rounds, alternates service and Prism rounds, checks the targets and writes the JSON report', async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), 'bench-quick-'));
    try {
      const options = parseBenchArgs(
        [
          '--quick',
          '--engine',
          'pglite',
          '--items',
          '250',
          '--pglite',
          'memory',
          '--rounds',
          '3',
          '--no-extras',
          '--out',
          outDir,
        ],
        () => {},
      );
      if (options === 'help') throw new Error('unexpected help');
      const report = await runBench(options);
      const e = report.engines.pglite!;
      expect(e.seed.items).toBe(250);
      expect(Object.values(e.seed.byCollection).reduce((a, b) => a + b, 0)).toBe(250);
      expect(Object.keys(e.seed.byCollection).sort()).toEqual([
        'eventgroups',
        'events',
        'locations',
        'routes',
        'venues',
      ]);
      expect(e.page2000.http.n).toBe(options.latencyIterations);
      expect(e.page2000.undici.n).toBe(options.latencyIterations);
      expect(e.page2000.direct.n).toBe(options.latencyIterations);
      // In rounds alternating the three, each with a p50 of every side.
      expect(e.page2000.rounds).toHaveLength(3);
      for (const round of e.page2000.rounds) expect(Object.values(round).every((p50) => p50 > 0)).toBe(true);
      // The same page every way (the HTTP body is the direct JSON text).
      expect(e.page2000.http.bytes).toBe(e.page2000.direct.bytes);
      expect(e.page2000.undici.bytes).toBe(e.page2000.direct.bytes);
      // Every HTTP page's first byte timed, none after its page's end.
      expect(e.page2000.firstByte.n).toBe(options.latencyIterations);
      expect(e.page2000.firstByte.p50).toBeGreaterThan(0);
      expect(e.page2000.firstByte.max).toBeLessThanOrEqual(e.page2000.http.max);
      expect(e.page2000.firstByteShare).toBeCloseTo(e.page2000.firstByte.p50 / e.page2000.http.p50);
      const syncable =
        (e.seed.byStatus.approved ?? 0) + (e.seed.byStatus.archived ?? 0) + (e.seed.byStatus.deleted ?? 0);
      expect(e.backfill.http.items).toBe(syncable);
      expect(e.backfill.direct.items).toBe(syncable);
      expect(e.backfill.http.pages).toBeGreaterThan(5); // size 50 in quick mode: several pages per collection
      // The prefetching backfill: the same items and pages as the sequential one, a positive rate.
      expect(e.backfill.prefetch.items).toBe(e.backfill.http.items);
      expect(e.backfill.prefetch.pages).toBe(e.backfill.http.pages);
      expect(e.backfill.prefetch.itemsPerSecond).toBeGreaterThan(0);
      expect(e.phases['backfill-http-prefetch']!.units).toBe(e.backfill.prefetch.items / 1000);
      // Reading only the keyset: the same items and pages as JSON.parse gave.
      expect(e.backfill.keys).toMatchObject({
        read: 'keys',
        items: e.backfill.http.items,
        pages: e.backfill.http.pages,
        bytes: e.backfill.prefetch.bytes,
      });
      expect(e.backfill.http.read).toBe('items');
      expect(e.phases['backfill-http-keys']!.units).toBe(e.backfill.keys.items / 1000);
      expect(e.rps20.direct.requests).toBeGreaterThan(0);
      // Three rounds of (service, service with no-cache, Prism): each figure is a median run, the ratios median ÷ median.
      expect(report.mock).toBeUndefined();
      const mock = e.rps20.mock!;
      expect(e.rps20.runs).toHaveLength(3);
      expect(mock.runs).toHaveLength(3);
      expect(mock.rounds).toHaveLength(3);
      mock.rounds.forEach((round, i) => {
        expect(round.service).toBeGreaterThan(0);
        expect(round.mock).toBeGreaterThan(0);
        expect(round.service).toBe(e.rps20.runs[i]!.requestsPerSecond);
        expect(round.fresh).toBe(e.rps20.fresh.runs[i]!.requestsPerSecond);
        expect(round.mock).toBe(mock.runs[i]!.requestsPerSecond);
      });
      const middle = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
      expect(e.rps20.http).toBe(medianRun(e.rps20.runs));
      expect(e.rps20.http.requestsPerSecond).toBe(middle(mock.rounds.map((r) => r.service)));
      expect(mock.rps20.requestsPerSecond).toBe(middle(mock.rounds.map((r) => r.mock)));
      expect(mock.ratio).toBe(e.rps20.http.requestsPerSecond / mock.rps20.requestsPerSecond);
      expect(e.rps20.fresh.http).toBe(medianRun(e.rps20.fresh.runs));
      expect(mock.freshRatio).toBe(e.rps20.fresh.http.requestsPerSecond / mock.rps20.requestsPerSecond);
      expect(mock.mockCpuMsPerRequest).toBeGreaterThan(0);
      // The service's CPU per request is over its own runs only.
      const rps20Cpu = e.phases['rps20-http']!;
      expect(rps20Cpu.runs).toBe(3);
      expect(rps20Cpu.units).toBe(e.rps20.runs.reduce((sum, r) => sum + r.requests, 0));
      expect(e.phases['rps20-http-fresh']!.units).toBe(e.rps20.fresh.runs.reduce((sum, r) => sum + r.requests, 0));
      expect(report.targets.map((t) => t.name)).toEqual([
        'GET /events?size=2000 p50 vs direct',
        'GET /events?size=2000 first byte p50 (sent while it is written)',
        "keyset backfill over HTTP (prefetching; the client reads each item's id and lastupdated)",
        'keyset backfill directly in the service (query and page rendering, no HTTP)',
        'GET /events?size=20 req/s vs Prism mock',
      ]);
      expect(report.targets[0]!.met).toBe(e.page2000.ratioP50 <= 1.5);
      expect(report.targets[1]!.met).toBe(e.page2000.firstByteShare <= 0.25);
      // The machine's CPU of a phase holds the service's.
      for (const name of ['page2000-http', 'page2000-direct'] as const) {
        const p = e.phases[name]!;
        expect(p.machineCpuMsPerUnit).toBe(p.machineCpuMs / p.units);
        expect(p.machineCpuMs).toBeGreaterThan(0);
        // /proc counts in ticks of 10 ms, read at each end of each run.
        expect(p.machineCpuMs + 20 * p.runs).toBeGreaterThanOrEqual(p.serviceCpuMs);
      }
      const direct = report.targets[3]!;
      expect(direct.met).toBe(e.backfill.direct.itemsPerSecond >= 40_000);
      const vsMock = report.targets[4]!;
      expect(vsMock).toMatchObject({ engine: 'pglite', informative: true, met: mock.ratio >= 1 });
      expect(vsMock.measured).toBe(`${mock.ratio.toFixed(2)}× (median ÷ median of 3 interleaved rounds)`);

      const int = (n: number) => Math.round(n).toLocaleString('en');
      const written = JSON.parse(await readFile(report.reportFile!, 'utf8')) as BenchReport;
      expect(written.engines.pglite!.seed.items).toBe(250);
      const text = formatReport(report);
      expect(text).toContain('GET /events?size=2000 p50');
      const machine = (name: string) => e.phases[name]!.machineCpuMsPerUnit;
      expect(text).toMatch(
        new RegExp(
          `the machine's CPU per page \\(the service, PostgreSQL and the reader together, on \\d+ cores\\) +${ms(machine('page2000-http'))} +${ms(machine('page2000-direct'))} +${(machine('page2000-http') / machine('page2000-direct')).toFixed(2)}× +cores busy \\d+% \\| \\d+%`,
        ),
      );
      expect(text).toContain('keyset backfill');
      expect(text).toContain('the same requests, the next one sent while the client parses a page');
      expect(text).toContain(`${e.backfill.prefetch.mispredictions} mispredictions`);
      expect(text).toContain("the same prefetching, the client reading each item's id and lastupdated");
      const backfillTarget = report.targets[2]!;
      expect(backfillTarget.measured).toBe(`${int(e.backfill.keys.itemsPerSecond)} items/s`);
      expect(text).toContain('the same request, service ÷ Prism mock (median of 3 interleaved rounds)');
      expect(text).toContain(
        `rounds (service/service no-cache/Prism req/s): ${mock.rounds.map((r) => `${int(r.service)}/${int(r.fresh)}/${int(r.mock)}`).join(' · ')}; per-round ratio `,
      );
      expect(text).toContain('the same with Cache-Control: no-cache (every answer read from the store)');
      expect(text).toContain('prism mock generated/openapi.yaml -p <port> -h 127.0.0.1 -v silent');
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  }, 240_000);
});

describe('bench helpers', () => {
  it('when a keyset page repeats the items at the mark, then only the new ones count', () => {
    const first = countFresh(
      [
        { id: 'a', lastupdated: '1' },
        { id: 'b', lastupdated: '2' },
      ],
      undefined,
      new Set(),
    );
    expect(first).toEqual({ fresh: 2, mark: '2', atMark: new Set(['b']) });
    const second = countFresh(
      [
        { id: 'b', lastupdated: '2' },
        { id: 'c', lastupdated: '3' },
      ],
      first.mark,
      first.atMark,
    );
    expect(second).toEqual({ fresh: 1, mark: '3', atMark: new Set(['c']) });
  });

  it("when rounds are summed up, then the client rows take the median run, or a round's failure", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2); // the lower middle: a value that was measured
    const run = (rate: number): ExtraResult<{ rate: number }> => ({
      source: 's',
      ok: true,
      result: { rate },
      ms: rate,
    });
    const runs = [run(30), run(10), run(20)];
    expect(medianExtra(runs, (r) => r.rate)).toBe(runs[2]);
    const failed: ExtraResult<{ rate: number }> = { source: 's', ok: false, error: 'boom', ms: 1 };
    expect(medianExtra([run(10), failed, run(20)], (r) => r.rate)).toBe(failed);
  });

  it('when percentiles are taken, then they are nearest-rank', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(
      percentile(
        [...samples].sort((a, b) => a - b),
        50,
      ),
    ).toBe(50);
    expect(summarise(samples)).toMatchObject({ n: 100, p50: 50, p99: 99, min: 1, max: 100 });
  });

  it('when the arguments are wrong, then parsing says which', () => {
    expect(() => parseBenchArgs(['--engine', 'mysql'])).toThrow(/--engine/);
    expect(() => parseBenchArgs(['--items', '-3'])).toThrow(/--items/);
    expect(() => parseBenchArgs(['--rounds', '1.5'])).toThrow(/--rounds/);
    expect(() => parseBenchArgs(['--rounds', '0'])).toThrow(/--rounds/);
    const options = parseBenchArgs([], () => {});
    expect(options).toMatchObject({
      engines: ['pglite', 'postgres'],
      items: 100_000,
      backfillSize: 2000,
      rounds: 3,
      mock: true,
      extras: true,
    });
    expect(parseBenchArgs(['--quick'], () => {})).toMatchObject({ rounds: 1 });
    expect(parseBenchArgs(['--rounds', '5'], () => {})).toMatchObject({ rounds: 5 });
  });
});
