// Self-test: the suite must catch broken implementations. The reference service runs behind the
// fault proxy (API traffic, and the service's webhook deliveries to the suite's receiver) with
// one fault of conformance/selftest/faults.ts at a time; only the checks relevant to the fault
// run (in this process, like the CLI's worker does), and the fault must be detected on its
// requirement ids, and nowhere the fault does not reach. Every check a fault names must exist, so
// a renamed check fails the fault's test.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../conformance/engine/results/result.ts';
import type { FaultModifier } from '../../../conformance/selftest/faultProxy.ts';
import { FAULTS } from '../../../conformance/selftest/faults.ts';
import type { FaultCase } from '../../../conformance/selftest/faults.ts';
import { createSecretBook } from '../../../conformance/selftest/traffic.ts';
import { startProxiedReferenceWithChecks } from './proxiedReference.ts';
import type { ProxiedReference } from './proxiedReference.ts';
import { ROOT } from './referenceService.ts';

const FAILING = new Set(['fail', 'warn', 'decision-fail']);

interface Row {
  fault: FaultCase;
  status: 'detected' | 'MISSED';
  failed: string[];
  elsewhere: string[];
  applied: number;
  ms: number;
}

/**
 * Defines the self-test for every `parts`-th fault starting at `part`, so that the faults run in
 * several test files at once (vitest runs files in parallel, the faults of one file one by one).
 */
export function describeFaultRuns(part: number, parts: number): void {
  const report = join(ROOT, `reports/conformance-selftest/faults-${part + 1}.md`);
  let target: ProxiedReference | undefined;
  let checkIds: Set<string>;
  const rows: Row[] = [];
  /** SELFTEST_FAULTS=name,name runs only those faults (while working on one). */
  const ONLY = process.env.SELFTEST_FAULTS?.split(',').filter(Boolean);

  /** Runs the checks through the proxy with these modifiers; `applied`: what each modifier changed. */
  function runThroughProxy(
    checks: readonly string[],
    modifiers: FaultModifier[],
  ): Promise<{ result: RunResult; applied: Map<string, number> }> {
    return target!.run('full', modifiers, ['--only', checks.join(',')]);
  }

  describe(`the suite catches a broken reference service, one injected fault at a time (part ${part + 1} of ${parts})`, () => {
    beforeAll(async () => {
      // One proxy in front of the service for every fault (see proxiedReference.ts).
      ({ target, checkIds } = await startProxiedReferenceWithChecks());
    }, 120_000);

    afterAll(async () => {
      await target?.close();
      if (rows.length === 0) return;
      const lines = [
        '| Fault | Family | Requirement | Checks | Detected? | Also failed | Time |',
        '|---|---|---|---|---|---|---|',
        ...rows.map(
          (r) =>
            `| \`${r.fault.name}\` | ${r.fault.family} | ${r.fault.detects.join(', ')} | ${r.fault.checks.join(', ')} | ${r.status} | ${r.failed.filter((id) => !r.fault.detects.includes(id)).join(', ') || '—'} | ${(r.ms / 1000).toFixed(1)} s |`,
        ),
      ];
      await mkdir(join(ROOT, 'reports/conformance-selftest'), { recursive: true });
      await writeFile(report, `${lines.join('\n')}\n`);
      const total = rows.reduce((sum, r) => sum + r.ms, 0);
      console.info(
        `self-test: ${rows.filter((r) => r.status === 'detected').length} of ${rows.length} faults detected, ${(total / 1000).toFixed(1)} s in runs; table: ${report}\n${lines.join('\n')}`,
      );
    });

    it('when the traffic goes through the proxy without a fault, then the same checks pass, webhooks and resourceUri included', async () => {
      const secrets = createSecretBook();
      const checks = [
        'paging.keyset-inclusive',
        'items.detail-not-limited',
        'webhooks.delivery-signed',
        'webhooks.event-types',
        'retries.transient',
        'tokens.rotate-secret',
      ];
      const { result, applied } = await runThroughProxy(checks, [secrets.observer]);
      const ran = result.checks.filter((c) => checks.includes(c.id));
      expect(
        ran
          .filter((c) => c.status !== 'passed')
          .map((c) => `${c.id}: ${c.status} ${c.failure?.message ?? c.skipReason ?? ''}`),
      ).toEqual([]);
      expect(ran.map((c) => c.id).sort()).toEqual([...checks].sort());
      expect(applied.size, 'the observer changes nothing').toBe(0);
    }, 120_000);

    for (const fault of FAULTS.filter((f, i) => i % parts === part && (!ONLY || ONLY.includes(f.name)))) {
      it(`when ${fault.name} (${fault.fault}), then ${fault.detects.join(' and ')} fail(s)${fault.alsoBreaks ? '' : ' and nothing else'}`, async () => {
        expect(
          fault.checks.filter((id) => !checkIds.has(id)),
          `${fault.name} names checks that do not exist`,
        ).toEqual([]);
        const started = Date.now();
        const secrets = createSecretBook();
        const run = await runThroughProxy(fault.checks, [
          secrets.observer,
          ...fault.make({ tokens: target!.service.tokens, secrets }),
        ]);
        const { result } = run;
        const applied = [...run.applied.values()].reduce((sum, n) => sum + n, 0);
        const failed = result.requirements.filter((r) => FAILING.has(r.verdict)).map((r) => r.id);
        const allowed = new Set([...fault.detects, ...(fault.alsoBreaks ?? [])]);
        const row: Row = {
          fault,
          status: applied > 0 && fault.detects.every((id) => failed.includes(id)) ? 'detected' : 'MISSED',
          failed,
          elsewhere: failed.filter((id) => !allowed.has(id)),
          applied,
          ms: Date.now() - started,
        };
        rows.push(row);
        const why = result.checks
          .filter((c) => c.failure)
          .map((c) => `${c.id} [${c.failure!.requirements.join(', ')}]: ${c.failure!.message}`)
          .join('\n');
        expect(row.applied, `the fault never applied (${fault.name})`).toBeGreaterThan(0);
        expect(failed, `${fault.name} was not detected on ${fault.detects.join(', ')}:\n${why}`).toEqual(
          expect.arrayContaining([...fault.detects]),
        );
        expect(row.elsewhere, `${fault.name} also failed requirements it does not break:\n${why}`).toEqual([]);
      }, 180_000);
    }
  });
}
