// The words every reporter uses for the overall verdict, so the console, the HTML page and the
// step summary say the same thing: what the verdict is and what it does not mean.

import type { RunResult } from '../engine/results/result.ts';
import { GATING_PROFILES } from '../engine/plan/credentials.ts';

export const VERDICT_LABEL: Record<RunResult['verdict'], string> = {
  pass: 'PASS',
  fail: 'FAIL',
  incomplete: 'INCOMPLETE (MUST requirements not verified)',
};

/** What the verdict covers: the consumer profile is a read-only subset, never a certification. */
export function verdictScope(result: Pick<RunResult, 'profile' | 'verdict' | 'exitCode'>): string | undefined {
  if (!GATING_PROFILES.includes(result.profile))
    return `profile ${result.profile}: the read-only subset only, not a certification (use --profile certification with every token)`;
  if (result.verdict === 'incomplete')
    return result.exitCode === 0
      ? 'allowed by --allow-incomplete'
      : 'exit 3: MUST requirements were left unverified (--allow-incomplete exits 0)';
  return undefined;
}
