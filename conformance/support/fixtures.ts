// Run-scoped fixtures: a value made once per run and shared by the checks that ask for it.

import type { CheckContext } from '../engine/runtime/context.ts';

const fixtures = new Map<string, Promise<unknown>>();

/**
 * The value `make` produced the first time any check of this run asked for `key` (same target,
 * same run id). Checks share fixtures this way instead of writing the same items again; a
 * shared fixture must be treated as read-only. A failure is shared too (same root cause).
 */
export function runFixture<T>(
  ctx: Pick<CheckContext, 'runId' | 'config'>,
  key: string,
  make: () => Promise<T>,
): Promise<T> {
  const cacheKey = `${ctx.runId}\u0000${ctx.config.baseUrl ?? ''}\u0000${key}`;
  let value = fixtures.get(cacheKey) as Promise<T> | undefined;
  if (!value) {
    value = make();
    fixtures.set(cacheKey, value);
  }
  return value;
}
