// What one check run produced, as it travels from the engine to the reporters (plain JSON: the
// result file is made of it).

import type { Exchange } from './exchange.ts';
import type { FailureKind } from './failure.ts';

/** One cleanup step at the end of the run and whether it worked. */
export interface CleanupResult {
  description: string;
  ok: boolean;
  error?: string;
}

export interface FailureRecord {
  kind: FailureKind;
  message: string;
  received?: string;
  expected?: string;
  pointer?: string;
  /** The requirement ids this failure is about (a subset of the check's). */
  requirements: string[];
  exchanges: Exchange[];
  stack?: string;
}

export interface UnverifiedNote {
  requirements: string[];
  reason: string;
  /** The target can no longer show it (ctx.unobservable): reported as not verifiable black-box. */
  unobservable?: boolean;
}

/** A response that conforms to the interface but differs from our decisions: reported, never failed. */
export interface DeviationRecord {
  /** The DEC ids it differs in. */
  decisions: string[];
  message: string;
  received?: string;
  expected?: string;
  exchanges: Exchange[];
}

export interface CheckOutcome {
  checkId: string;
  status: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  skipReason?: string;
  failure?: FailureRecord;
  /** Requirements this run of the check could not verify (e.g. a date-dependent branch). */
  unverified: UnverifiedNote[];
  /** Requirements the check declared verified before it failed on another one (ctx.verified). */
  verified: string[];
  notes: string[];
  /** Responses of this check that differ from our decisions only (absent: none). */
  deviations?: DeviationRecord[];
  exchangeCount: number;
  /** A bounded sample of the check's exchanges. */
  evidence: Exchange[];
}

export interface CleanupOutcome {
  results: CleanupResult[];
  exchanges: Exchange[];
}

/** Text for a received/expected value: strings as they are, everything else as JSON, cut short. */
export function formatValue(value: unknown, limit = 2000): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
