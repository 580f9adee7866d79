// Decides, before anything runs, which checks run and why each other one does not:
// selection (--only/--skip), missing tokens, and the profile (consumer never writes).

import type { Check, Need } from '../../model/check.ts';
import type { Level } from '../../model/levels.ts';
import { strongestLevel } from '../../model/levels.ts';
import type { RequirementCatalogue } from '../../spec/requirements.ts';
import { matchesAny } from './glob.ts';
import { compareRunOrder, groupOf } from './order.ts';

/** What reporters and the worker need to know about a check (serialisable). */
export interface CheckInfo {
  id: string;
  title: string;
  group: string;
  requirements: string[];
  level: Level;
  tags: string[];
  needs: Need[];
  writes: string | undefined;
  order: 'normal' | 'last';
  dependsOn: string[];
}

/**
 * What planning reads of the run's configuration (ConformanceConfig has all of it). Declared here
 * so that the plan does not import config/, which loads the plan's expected-failures file.
 */
export interface PlanOptions {
  profile: string;
  tokens: { consumer?: string; full?: string; admin?: string; sessionUser?: string; sessionPassword?: string };
  accountId: string | undefined;
  feedId?: string;
  feedPartner?: object;
  only: readonly string[];
  skip: readonly string[];
}

export interface PlanEntry {
  check: CheckInfo;
  run: boolean;
  skipReason?: string;
}

export function describeCheck(check: Check, catalogue: RequirementCatalogue): CheckInfo {
  const level =
    check.explicitLevel ?? strongestLevel(check.requirements.map((r) => catalogue.get(r)?.level ?? 'MUST')) ?? 'MUST';
  return {
    id: check.id,
    title: check.title,
    group: groupOf(check.requirements),
    requirements: [...check.requirements],
    level,
    tags: [...check.tags],
    needs: [...check.needs],
    writes: check.writes,
    order: check.order,
    dependsOn: [...check.dependsOn],
  };
}

const WRITES: readonly Need[] = ['write', 'webhook', 'mutating', 'feed'];

export function unmetNeed(check: CheckInfo, config: Omit<PlanOptions, 'only' | 'skip'>): string | undefined {
  for (const need of check.needs) {
    if (WRITES.includes(need) && config.profile === 'consumer')
      return 'writes to the target; the consumer profile is read-only (use --profile full)';
    if (need === 'consumer' && !config.tokens.consumer) return 'needs a consumer token (--token)';
    if (need === 'full' && !config.tokens.full)
      return 'needs a token that sees archived and deleted items (--full-token)';
    if (
      (need === 'admin' || need === 'webhook' || need === 'mutating' || need === 'feed') &&
      (!config.tokens.admin || !config.accountId)
    ) {
      return 'needs an admin token and its account (--admin-token, --account-id)';
    }
    if (need === 'write' && !config.tokens.consumer) return 'needs a consumer token to write with (--token)';
    if (need === 'feed' && (!config.feedId || !config.feedPartner)) {
      return 'needs an inbound feed of the account that fetches the suite\'s partner endpoint (--feed-id and --feed-partner-port; see "Feed checks" in conformance/README.md)';
    }
    if (need === 'session' && (!config.tokens.sessionUser || !config.tokens.sessionPassword))
      return 'needs sign-in credentials (--session-user, --session-password)';
  }
  return undefined;
}

/** How a check left out by --only is reported: the console shows only what runs. */
export const NOT_SELECTED = 'not selected by --only';

export function selectionReason(
  check: CheckInfo,
  only: readonly string[],
  skip: readonly string[],
): string | undefined {
  const values = [check.id, ...check.requirements, ...check.tags, check.group];
  if (only.length > 0 && !matchesAny(only, values)) return `${NOT_SELECTED} ${only.join(',')}`;
  const skipped = matchesAny(skip, values);
  return skipped ? `excluded by --skip ${skipped}` : undefined;
}

export function planChecks(
  checks: readonly Check[],
  catalogue: RequirementCatalogue,
  config: PlanOptions,
): PlanEntry[] {
  return checks
    .map((c) => describeCheck(c, catalogue))
    .sort(compareRunOrder)
    .map((check) => {
      const skipReason = selectionReason(check, config.only, config.skip) ?? unmetNeed(check, config);
      return skipReason ? { check, run: false, skipReason } : { check, run: true };
    });
}

/** Patterns of --only/--skip that match no check at all: almost always a typo. */
export function unmatchedPatterns(checks: readonly CheckInfo[], patterns: readonly string[]): string[] {
  return patterns.filter((p) => !checks.some((c) => matchesAny([p], [c.id, ...c.requirements, ...c.tags, c.group])));
}
