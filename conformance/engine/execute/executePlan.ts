// The suite's own engine: runs the planned checks in this process and speaks only in events.
// Checks that only read run side by side (up to `concurrency`); a check that writes, uses the
// webhook receiver or the feed, or drains the rate limit (order 'last') runs alone, so no two
// writing checks ever overlap and no reader sees another check's half-written data. Results are
// emitted in plan order, whatever order the checks finish in; planned skips at their place.

import type { Check } from '../../model/check.ts';
import type { CheckOutcome, CleanupOutcome } from '../../model/outcome.ts';
import type { Reporter, RunEvent } from '../events.ts';
import type { CheckInfo, PlanEntry } from '../plan/select.ts';
import type { CheckResult } from '../results/result.ts';
import type { Runtime } from '../runtime/runtime.ts';

/** Needs that make a check run alone: it changes the target, or listens for what the target sends. */
const EXCLUSIVE_NEEDS: readonly string[] = ['write', 'webhook', 'mutating', 'feed', 'session'];

export function runsAlone(check: CheckInfo): boolean {
  return check.order === 'last' || check.needs.some((n) => EXCLUSIVE_NEEDS.includes(n));
}

export interface ExecuteOptions {
  plan: readonly PlanEntry[];
  checks: ReadonlyMap<string, Check>;
  runtime: Pick<Runtime, 'runCheck' | 'runCleanup'>;
  /** Turns a plan entry and its outcome (none for a planned skip) into the reported result. */
  resolve(entry: PlanEntry, outcome: CheckOutcome | undefined): CheckResult;
  emit(event: RunEvent): Promise<void>;
  /** Most read-only checks at once (1: strictly one after another). */
  concurrency: number;
}

export interface Execution {
  outcomes: Map<string, CheckOutcome>;
  cleanup: CleanupOutcome;
}

/** The events of `reporters`, one after another: a reporter never sees two events at once. */
export function serialEmitter(reporters: readonly Reporter[]): (event: RunEvent) => Promise<void> {
  let queue: Promise<void> = Promise.resolve();
  return (event) => {
    queue = queue.then(async () => {
      for (const r of reporters) await r.onEvent(event);
    });
    return queue;
  };
}

/** The runtime turns what a check throws into its outcome; anything escaping that is the check's error too. */
async function runCheck(runtime: ExecuteOptions['runtime'], check: Check, info: CheckInfo): Promise<CheckOutcome> {
  const started = Date.now();
  try {
    return await runtime.runCheck(check, info);
  } catch (error) {
    return {
      checkId: info.id,
      status: 'failed',
      durationMs: Date.now() - started,
      failure: {
        kind: 'error',
        message: `the engine could not run the check: ${(error as Error)?.message ?? String(error)}`,
        requirements: [...info.requirements],
        exchanges: [],
      },
      unverified: [],
      verified: [],
      notes: [],
      exchangeCount: 0,
      evidence: [],
    };
  }
}

export async function executePlan(options: ExecuteOptions): Promise<Execution> {
  const { plan, checks, runtime, resolve, emit } = options;
  const concurrency = Math.max(1, options.concurrency);
  const outcomes = new Map<string, CheckOutcome>();
  const results: (CheckResult | undefined)[] = Array.from({ length: plan.length });
  let reported = 0;
  // Emits every finished result whose predecessors in the plan have been emitted.
  const flush = async () => {
    while (reported < plan.length && results[reported]) await emit({ type: 'check-end', result: results[reported++]! });
  };

  const running = new Set<Promise<void>>();
  for (const [index, entry] of plan.entries()) {
    if (!entry.run) {
      results[index] = resolve(entry, undefined);
      continue;
    }
    const check = checks.get(entry.check.id);
    if (!check) throw new Error(`check ${entry.check.id} was planned but not loaded`);
    const alone = runsAlone(entry.check);
    // A lone check waits for everything running; a reader waits for a free slot.
    if (alone) await Promise.all(running);
    else while (running.size >= concurrency) await Promise.race(running);
    await flush();
    await emit({ type: 'check-start', check: entry.check });
    const task: Promise<void> = runCheck(runtime, check, entry.check).then(async (outcome) => {
      outcomes.set(entry.check.id, outcome);
      results[index] = resolve(entry, outcome);
      running.delete(task);
      await flush();
    });
    running.add(task);
    if (alone) await task;
  }
  await Promise.all(running);
  await flush();

  const cleanup = await runtime.runCleanup();
  await emit({ type: 'cleanup-end', outcome: cleanup });
  return { outcomes, cleanup };
}
