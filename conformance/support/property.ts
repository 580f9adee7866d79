// Property-based checks: fast-check with the check's seed. A failure shrinks to a minimal case
// and becomes a CheckFailure that names the counterexample, the seed to replay with, and
// carries the exchange of the failing run (so the report shows a curl line for it).

import fc from 'fast-check';
import type { Exchange } from '../model/exchange.ts';
import { CheckFailure, isCheckFailure } from '../model/failure.ts';
import type { CheckContext } from '../engine/runtime/context.ts';

type PropertyContext = Pick<CheckContext, 'seed' | 'fc' | 'exchanges'>;

export async function assertProperty<Ts>(
  ctx: PropertyContext,
  property: fc.IAsyncProperty<Ts> | fc.IProperty<Ts>,
  params: fc.Parameters<Ts> = {},
): Promise<void> {
  const details = await fc.check(property, { seed: ctx.fc.seed, numRuns: ctx.fc.numRuns, ...params });
  if (!details.failed) return;
  const cause = details.errorInstance;
  const inner = isCheckFailure(cause) ? cause : undefined;
  const last: Exchange | undefined = ctx.exchanges.at(-1);
  const reason = inner?.message ?? (cause instanceof Error ? cause.message : String(cause));
  throw new CheckFailure({
    kind: inner?.kind ?? 'assertion',
    message:
      `property failed after ${details.numRuns} run(s) and ${details.numShrinks} shrink(s); smallest counterexample ${fc.stringify(details.counterexample)}: ${reason}. ` +
      `Replay with --seed ${ctx.seed} (fast-check seed ${details.seed}, path "${details.counterexamplePath ?? ''}")`,
    received: inner?.received ?? details.counterexample,
    expected: inner?.expected,
    pointer: inner?.pointer,
    requirements: inner?.requirements,
    exchanges: inner && inner.exchanges.length > 0 ? inner.exchanges : last ? [last] : [],
  });
}
