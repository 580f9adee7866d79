// The profiles that write (full, certification) fail closed: a run whose selected checks need a
// token nobody gave must not skip them and go green. This names what is missing, before the run.

import type { Need } from '../../model/check.ts';
import type { PlanEntry, PlanOptions } from './select.ts';
import { selectionReason } from './select.ts';

export interface MissingCredential {
  /** The flags (and their environment variables) that would provide it. */
  flags: string;
  /** Ids of the selected checks that need it. */
  checks: string[];
}

type Config = Pick<PlanOptions, 'profile' | 'tokens' | 'accountId' | 'only' | 'skip'>;

interface Credential {
  flags: string;
  needs: readonly Need[];
  given(config: Config): boolean;
}

const ADMIN_NEEDS: readonly Need[] = ['admin', 'webhook', 'mutating', 'feed'];

const CREDENTIALS: readonly Credential[] = [
  {
    flags: '--token (CONFORMANCE_TOKEN)',
    needs: ['consumer', 'write'],
    given: (c) => Boolean(c.tokens.consumer),
  },
  {
    flags: '--full-token (CONFORMANCE_FULL_TOKEN)',
    needs: ['full'],
    given: (c) => Boolean(c.tokens.full),
  },
  {
    flags: '--admin-token (CONFORMANCE_ADMIN_TOKEN)',
    needs: ADMIN_NEEDS,
    given: (c) => Boolean(c.tokens.admin),
  },
  {
    flags: '--account-id (CONFORMANCE_ACCOUNT_ID)',
    needs: ADMIN_NEEDS,
    given: (c) => Boolean(c.accountId),
  },
  {
    flags: '--session-user and --session-password (CONFORMANCE_SESSION_USER, CONFORMANCE_SESSION_PASSWORD)',
    needs: ['session'],
    given: (c) => Boolean(c.tokens.sessionUser && c.tokens.sessionPassword),
  },
];

/** Profiles that write and certify, so fail closed: on a missing credential and on INCOMPLETE. */
export const GATING_PROFILES: readonly string[] = ['full', 'certification'];

/** What the selected checks need but nobody gave; empty under the consumer profile. */
export function missingCredentials(plan: readonly PlanEntry[], config: Config): MissingCredential[] {
  if (!GATING_PROFILES.includes(config.profile)) return [];
  // Checks excluded by --only/--skip need nothing.
  const selected = plan.filter((e) => selectionReason(e.check, config.only, config.skip) === undefined);
  const missing: MissingCredential[] = [];
  for (const credential of CREDENTIALS) {
    if (credential.given(config)) continue;
    const checks = selected
      .filter((e) => e.check.needs.some((n) => credential.needs.includes(n)))
      .map((e) => e.check.id);
    if (checks.length > 0) missing.push({ flags: credential.flags, checks });
  }
  return missing;
}

/** One line per missing credential: what to give and a few of the checks that need it. */
export function describeMissing(missing: readonly MissingCredential[], profile: string): string {
  const lines = missing.map((m) => {
    const shown = m.checks.slice(0, 3).join(', ');
    const more = m.checks.length > 3 ? ` and ${m.checks.length - 3} more` : '';
    return `  ${m.flags}: needed by ${m.checks.length} check(s) (${shown}${more})`;
  });
  return `the ${profile} profile needs credentials that were not given:\n${lines.join('\n')}\nGive them, or narrow the run with --only/--skip, or use --profile consumer for the read-only subset.`;
}
