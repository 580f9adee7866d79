import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../bench.ts';
import { countFresh } from './protocol.ts';
import { formatReport } from './report.ts';
import { runBench, type BenchReport } from './run.ts';
import { percentile, summarise } from './stats.ts';

// The bench is not a test (npm run bench): this only proves that it runs end to end, in quick mode
// on PGlite with a few hundred items. No timing is asserted.

describe('npm run bench -- --quick', () => {
  it('when run on PGlite with a few hundred items, then it seeds, measures HTTP and direct work, checks the targets and writes the JSON report', async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), 'bench-quick-'));
    try {
      const options = parseBenchArgs(['--quick', '--engine', 'pglite', '--items', '250', '--pglite', 'memory', '--no-mock', '--no-extras', '--out', outDir], () => {});
      if (options === 'help') throw new Error('unexpected help');
      const report = await runBench(options);
      const e = report.engines.pglite!;
      expect(e.seed.items).toBe(250);
      expect(Object.values(e.seed.byCollection).reduce((a, b) => a + b, 0)).toBe(250);
      expect(Object.keys(e.seed.byCollection).sort()).toEqual(['eventgroups', 'events', 'locations', 'routes', 'venues']);
      expect(e.page2000.http.n).toBe(options.latencyIterations);
      expect(e.page2000.direct.n).toBe(options.latencyIterations);
      // The same page both ways (the HTTP body is the direct JSON text).
      expect(e.page2000.http.bytes).toBe(e.page2000.direct.bytes);
      const syncable = (e.seed.byStatus.approved ?? 0) + (e.seed.byStatus.archived ?? 0) + (e.seed.byStatus.deleted ?? 0);
      expect(e.backfill.http.items).toBe(syncable);
      expect(e.backfill.direct.items).toBe(syncable);
      expect(e.backfill.http.pages).toBeGreaterThan(5); // size 50 in quick mode: several pages per collection
      // The prefetching backfill: the same items and pages as the sequential one, a positive rate.
      expect(e.backfill.prefetch.items).toBe(e.backfill.http.items);
      expect(e.backfill.prefetch.pages).toBe(e.backfill.http.pages);
      expect(e.backfill.prefetch.itemsPerSecond).toBeGreaterThan(0);
      expect(e.phases['backfill-http-prefetch']!.units).toBe(e.backfill.prefetch.items / 1000);
      expect(e.rps20.http.requests).toBeGreaterThan(0);
      expect(e.rps20.direct.requests).toBeGreaterThan(0);
      expect(report.targets.map((t) => t.name)).toEqual(['GET /events?size=2000 p50 vs direct', 'keyset backfill over HTTP (client prefetches the next page while parsing)']);

      const written = JSON.parse(await readFile(report.reportFile!, 'utf8')) as BenchReport;
      expect(written.engines.pglite!.seed.items).toBe(250);
      const text = formatReport(report);
      expect(text).toContain('GET /events?size=2000 p50');
      expect(text).toContain('keyset backfill');
      expect(text).toContain('the same requests, the next one sent while the client parses a page');
      expect(text).toContain(`${e.backfill.prefetch.mispredictions} mispredictions`);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  }, 240_000);
});

describe('bench helpers', () => {
  it('when a keyset page repeats the items at the mark, then only the new ones count', () => {
    const first = countFresh([{ id: 'a', lastupdated: '1' }, { id: 'b', lastupdated: '2' }], undefined, new Set());
    expect(first).toEqual({ fresh: 2, mark: '2', atMark: new Set(['b']) });
    const second = countFresh([{ id: 'b', lastupdated: '2' }, { id: 'c', lastupdated: '3' }], first.mark, first.atMark);
    expect(second).toEqual({ fresh: 1, mark: '3', atMark: new Set(['c']) });
  });

  it('when percentiles are taken, then they are nearest-rank', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile([...samples].sort((a, b) => a - b), 50)).toBe(50);
    expect(summarise(samples)).toMatchObject({ n: 100, p50: 50, p99: 99, min: 1, max: 100 });
  });

  it('when the arguments are wrong, then parsing says which', () => {
    expect(() => parseBenchArgs(['--engine', 'mysql'])).toThrow(/--engine/);
    expect(() => parseBenchArgs(['--items', '-3'])).toThrow(/--items/);
    const options = parseBenchArgs([], () => {});
    expect(options).toMatchObject({ engines: ['pglite', 'postgres'], items: 100_000, backfillSize: 2000, mock: true, extras: true });
  });
});
