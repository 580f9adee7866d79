import { describe, expect, it } from 'vitest';
import { defineCheck } from '../../model/check.ts';
import type { Need } from '../../model/check.ts';
import type { CheckOutcome } from '../../model/outcome.ts';
import type { RunEvent } from '../events.ts';
import type { PlanEntry } from '../plan/select.ts';
import type { CheckResult } from '../results/result.ts';
import { executePlan, serialEmitter } from './executePlan.ts';

const DELAY = 30;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function entry(id: string, needs: Need[] = [], run = true): PlanEntry {
  return {
    run,
    ...(run ? {} : { skipReason: 'not selected' }),
    check: {
      id,
      title: id,
      group: 'G',
      requirements: ['HEALTH-001'],
      level: 'MUST',
      tags: [],
      needs,
      writes: needs.some((n) => n !== 'consumer' && n !== 'full') ? 'items' : undefined,
      order: 'normal',
      dependsOn: [],
    },
  };
}

/** Runs the plan with checks that each take DELAY ms (the first one longer); records what overlapped. */
async function execute(plan: PlanEntry[], concurrency: number, slowFirst = false) {
  const active = new Set<string>();
  const overlaps: string[][] = [];
  const events: string[] = [];
  const checks = new Map(
    plan.map((e, i) => [
      e.check.id,
      defineCheck({
        id: e.check.id,
        title: e.check.id,
        requirements: ['HEALTH-001'],
        needs: e.check.needs,
        writes: e.check.writes,
        run: async () => {
          active.add(e.check.id);
          if (active.size > 1) overlaps.push([...active].sort());
          await sleep(slowFirst && i === 0 ? DELAY * 3 : DELAY);
          active.delete(e.check.id);
        },
      }),
    ]),
  );
  const emit = serialEmitter([
    {
      onEvent: (event: RunEvent) => {
        if (event.type === 'check-start') events.push(`start ${event.check.id}`);
        if (event.type === 'check-end') events.push(`end ${event.result.id} ${event.result.status}`);
        if (event.type === 'cleanup-end') events.push('cleanup');
      },
    },
  ]);
  const started = Date.now();
  const execution = await executePlan({
    plan,
    checks,
    concurrency,
    emit,
    runtime: {
      async runCheck(check, info) {
        await check.run(undefined as never);
        return {
          checkId: info.id,
          status: 'passed',
          durationMs: DELAY,
          unverified: [],
          verified: [],
          notes: [],
          exchangeCount: 0,
          evidence: [],
        } satisfies CheckOutcome;
      },
      runCleanup: async () => ({ results: [], exchanges: [] }),
    },
    resolve: (e, outcome) => ({ ...e.check, status: outcome ? outcome.status : 'skipped' }) as CheckResult,
  });
  return { overlaps, events, execution, ms: Date.now() - started };
}

describe('executePlan', () => {
  it('when checks only read, then they run side by side and their results still come in plan order', async () => {
    const plan = [
      entry('a.one', ['consumer']),
      entry('a.two', ['consumer']),
      entry('a.three'),
      entry('a.skip', [], false),
    ];
    const { overlaps, events, execution, ms } = await execute(plan, 4, true);
    expect(overlaps.length).toBeGreaterThan(0);
    expect(ms).toBeLessThan(DELAY * 3 + DELAY * 2); // not 5 × DELAY one after another
    expect(events.filter((e) => e.startsWith('end') || e === 'cleanup')).toEqual([
      'end a.one passed',
      'end a.two passed',
      'end a.three passed',
      'end a.skip skipped',
      'cleanup',
    ]);
    expect([...execution.outcomes.keys()].sort()).toEqual(['a.one', 'a.three', 'a.two']);
  });

  it('when a check writes, then it runs alone: no other check overlaps it, and never two writers', async () => {
    const plan = [
      entry('r.one', ['consumer']),
      entry('w.one', ['write']),
      entry('w.two', ['webhook']),
      entry('r.two', ['consumer']),
      entry('r.three', ['consumer']),
      entry('w.three', ['write', 'full']),
    ];
    const { overlaps, events } = await execute(plan, 4);
    for (const group of overlaps) expect(group.some((id) => id.startsWith('w.'))).toBe(false);
    expect(overlaps).toEqual([['r.three', 'r.two']]);
    // A writer starts only after everything before it has ended.
    expect(events.indexOf('start w.one')).toBeGreaterThan(events.indexOf('end r.one passed'));
    expect(events.indexOf('start w.three')).toBeGreaterThan(events.indexOf('end r.three passed'));
  });

  it('when the concurrency is 1, then nothing overlaps', async () => {
    const plan = [entry('a.one', ['consumer']), entry('a.two', ['consumer']), entry('a.three')];
    const { overlaps } = await execute(plan, 1);
    expect(overlaps).toEqual([]);
  });
});
