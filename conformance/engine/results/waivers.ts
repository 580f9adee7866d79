// What became of each waiver (--expected-failures entry) in a run: applied to a failure, stale
// (its checks now pass), expired (its date has passed: it waived nothing), or unused (no check it
// covers ran). Stale and expired waivers fail the run, each with its own message.

import type { ExpectedFailure } from '../plan/expectedFailures.ts';
import { findExpectedFailure, isExpired, waiverCovers, waiverLabel } from '../plan/expectedFailures.ts';

export type WaiverState = 'applied' | 'stale' | 'expired' | 'unused';

export interface WaiverResult extends ExpectedFailure {
  state: WaiverState;
  /** The checks the waiver covers in this run. */
  checks: string[];
  message: string;
}

/** The part of a check result a waiver review reads. */
interface ReviewedCheck {
  id: string;
  requirements: readonly string[];
  status: string;
  failure?: { requirements: readonly string[] };
  verified: readonly string[];
}

export function waiverFailsRun(waiver: WaiverResult): boolean {
  return waiver.state === 'stale' || waiver.state === 'expired';
}

export function reviewWaivers(
  entries: readonly ExpectedFailure[],
  checks: readonly ReviewedCheck[],
  at: Date,
): WaiverResult[] {
  return entries.map((entry) => {
    const label = waiverLabel(entry);
    const covered = checks.filter((c) => waiverCovers(entry, c.id, c.requirements));
    const ids = covered.map((c) => c.id);
    const base = { ...entry, checks: ids };
    if (isExpired(entry, at))
      return {
        ...base,
        state: 'expired',
        message: `waiver for ${label} expired on ${entry.expires} (owner ${entry.owner}): it waives nothing now; fix the target, or renew the waiver with a new date`,
      };
    const owns = (c: ReviewedCheck, requirements: readonly string[]) =>
      findExpectedFailure(entries, c.id, requirements, at) === entry;
    const applied = covered.filter((c) => c.status === 'expected-failure' && owns(c, c.failure?.requirements ?? []));
    if (applied.length > 0)
      return {
        ...base,
        state: 'applied',
        message: `waives the failure of ${applied.map((c) => c.id).join(', ')}`,
      };
    const passing = covered.filter((c) => c.status === 'unexpected-pass' && owns(c, c.verified));
    if (passing.length > 0)
      return {
        ...base,
        state: 'stale',
        message: `stale waiver for ${label} (owner ${entry.owner}): ${passing.map((c) => c.id).join(', ')} now pass${passing.length === 1 ? 'es' : ''}; remove it from the expected-failures file`,
      };
    return {
      ...base,
      state: 'unused',
      message:
        ids.length === 0
          ? `no check covers ${label}`
          : `no failure to waive: ${ids.join(', ')} did not fail on it in this run`,
    };
  });
}
