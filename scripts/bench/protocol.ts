// What the bench process and its service process (service.ts) exchange over IPC.

import type { Collection } from '../../reference-impl/src/domain/entityRules.ts';
import type { SeedSummary } from './seed.ts';
import type { LatencySummary } from './stats.ts';

export type Engine = 'pglite' | 'postgres';

export interface InitParams {
  engine: Engine;
  items: number;
  /** PostgreSQL: server URL; the bench works in a fresh schema, dropped at close. */
  databaseUrl: string;
  /** PGlite: ':memory:' or 'disk' (a fresh temporary directory, removed at close). */
  pgliteStorage: 'memory' | 'disk';
  poolSize?: number;
}

export interface InitResult {
  baseUrl: string;
  token: string;
  seed: SeedSummary;
  migrateMs: number;
  openMs: number;
  /** Where the data lives (schema name or directory), for the report. */
  location: string;
}

/** A list request as the spec's validator hands it to the route (numbers and arrays parsed). */
export type ListQueryInput = Record<string, unknown>;

export interface DirectListParams {
  collection: Collection;
  query: ListQueryInput;
  iterations: number;
  warmup: number;
}
/** Sequential requests (or their direct work): each one's time in ms, and the size of the last answer. */
export interface TimedRequests {
  samples: number[];
  bytes: number;
  /** Read by the lean reader: each request's time to the first byte of its body, in ms. */
  firstBytes?: number[];
}
export interface DirectBackfillParams {
  collections: readonly Collection[];
  size: number;
  wfstatus: readonly string[];
}
export interface BackfillResult {
  items: number;
  pages: number;
  ms: number;
  itemsPerSecond: number;
  bytes: number;
}
export interface DirectRpsParams {
  collection: Collection;
  query: ListQueryInput;
  concurrency: number;
  durationMs: number;
  warmupMs: number;
}
export interface RpsResult {
  requests: number;
  ms: number;
  requestsPerSecond: number;
  latency: LatencySummary;
}

/**
 * Counts the items of a keyset page that are new (the inclusive bound repeats the previous page's
 * items at the mark) and returns the next mark and the ids seen at it.
 */
export function countFresh(
  items: ReadonlyArray<{ id: string; lastupdated: string }>,
  mark: string | undefined,
  atMark: ReadonlySet<string>,
): { fresh: number; mark: string | undefined; atMark: Set<string> } {
  let fresh = 0;
  for (const item of items) if (!(item.lastupdated === mark && atMark.has(item.id))) fresh++;
  const last = items.at(-1)?.lastupdated ?? mark;
  const nextAtMark = new Set(items.filter((item) => item.lastupdated === last).map((item) => item.id));
  if (last === mark) for (const id of atMark) nextAtMark.add(id);
  return { fresh, mark: last, atMark: nextAtMark };
}
