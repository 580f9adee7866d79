// Waivers: known failures of a target, kept in a file (YAML or JSON list), each with a reason, an
// owner and an expiry at most 90 days ahead, so that every waiver is reviewed by someone:
//
//   - requirement: RATE-004
//     reason: Prism does not rate limit
//     owner: platform-team@example.com
//     expires: 2027-01-31
//   - check: limits.size-cap
//     reason: Prism answers 422 for size above the schema maximum
//     owner: J. Jansen
//     expires: 2027-02-15
//
// A listed check that fails is reported as "expected failure" and does not fail the run. A waiver
// whose checks now pass (stale) or whose date has passed (expired: it no longer waives anything)
// fails the run with its own message, so the file stays true, as certification programmes demand.

import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { globToRegExp } from './glob.ts';

export interface ExpectedFailure {
  check?: string;
  requirement?: string;
  reason: string;
  /** Who answers for the waiver (a person, team or address). */
  owner: string;
  /** Last day (UTC, YYYY-MM-DD) the waiver holds. */
  expires: string;
}

/** The longest a waiver may run from the day its file is read. */
export const MAX_WAIVER_DAYS = 90;

const DAY_MS = 24 * 60 * 60 * 1000;

export class ExpectedFailuresError extends Error {
  override readonly name = 'ExpectedFailuresError';
  /** Every problem of the file, all at once. */
  readonly problems: readonly string[];
  constructor(problems: string | readonly string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.join('; '));
    this.problems = list;
  }
}

/** The UTC calendar day of a moment, as YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** A YYYY-MM-DD that names a real day (YAML may also hand over a Date), else undefined. */
function calendarDay(raw: unknown): string | undefined {
  if (raw instanceof Date && !Number.isNaN(raw.getTime())) return utcDay(raw);
  if (typeof raw !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(raw)) return undefined;
  const day = new Date(`${raw}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && utcDay(day) === raw ? raw : undefined;
}

function entryProblems(raw: unknown, where: string, today: Date): string[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return [`${where}: must be an object {check | requirement, reason, owner, expires}`];
  const entry = raw as Record<string, unknown>;
  const problems: string[] = [];
  const text = (key: string) => typeof entry[key] === 'string' && (entry[key] as string).trim() !== '';
  if (text('check') === text('requirement')) problems.push(`${where}: give exactly one of "check" or "requirement"`);
  if (!text('reason')) problems.push(`${where}: a non-empty "reason" is required`);
  if (!text('owner')) problems.push(`${where}: an "owner" is required (who reviews this waiver)`);
  if (entry.expires === undefined) {
    problems.push(`${where}: an "expires" date is required (YYYY-MM-DD, at most ${MAX_WAIVER_DAYS} days ahead)`);
  } else {
    const day = calendarDay(entry.expires);
    const latest = utcDay(new Date(today.getTime() + MAX_WAIVER_DAYS * DAY_MS));
    if (day === undefined)
      problems.push(`${where}: "expires" must be a date YYYY-MM-DD (received: ${JSON.stringify(entry.expires)})`);
    else if (day > latest)
      problems.push(
        `${where}: expires ${day} is more than ${MAX_WAIVER_DAYS} days ahead; the latest allowed today is ${latest}`,
      );
  }
  const known = ['check', 'requirement', 'reason', 'owner', 'expires'];
  for (const key of Object.keys(entry))
    if (!known.includes(key)) problems.push(`${where}: unknown key "${key}" (known: ${known.join(', ')})`);
  return problems;
}

/** The waivers of a file; every problem of every entry in one error. `today` bounds `expires`. */
export function parseExpectedFailures(text: string, source: string, today: Date = new Date()): ExpectedFailure[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw new ExpectedFailuresError(`${source} is not valid YAML/JSON: ${(error as Error).message}`);
  }
  const list = Array.isArray(doc) ? doc : (doc as { expectedFailures?: unknown } | null)?.expectedFailures;
  if (!Array.isArray(list))
    throw new ExpectedFailuresError(`${source} must be a list of {check | requirement, reason, owner, expires}`);
  const problems = list.flatMap((raw: unknown, i) => entryProblems(raw, `${source} entry ${i}`, today));
  if (problems.length > 0) throw new ExpectedFailuresError(problems);
  return list.map((raw: Record<string, unknown>) => {
    const common = {
      reason: String(raw.reason),
      owner: String(raw.owner),
      expires: calendarDay(raw.expires)!,
    };
    return typeof raw.check === 'string'
      ? { check: raw.check, ...common }
      : { requirement: String(raw.requirement), ...common };
  });
}

export async function loadExpectedFailures(file: string, today: Date = new Date()): Promise<ExpectedFailure[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ExpectedFailuresError(`cannot read ${file}: ${(error as Error).message}`);
  }
  return parseExpectedFailures(text, file, today);
}

/** Whether the waiver's last day is before the day of `at` (a run started then may not use it). */
export function isExpired(entry: ExpectedFailure, at: Date): boolean {
  return entry.expires < utcDay(at);
}

/** How the file names a waiver in messages. */
export function waiverLabel(entry: ExpectedFailure): string {
  return entry.check !== undefined ? `check ${entry.check}` : `requirement ${entry.requirement}`;
}

/** Whether the waiver names this check (by its id, or one of the given requirement ids). */
export function waiverCovers(entry: ExpectedFailure, checkId: string, requirementIds: readonly string[]): boolean {
  return entry.check !== undefined
    ? globToRegExp(entry.check).test(checkId)
    : requirementIds.some((r) => globToRegExp(entry.requirement!).test(r));
}

/** The waiver in force at `at` that covers a check; an expired one waives nothing. */
export function findExpectedFailure(
  entries: readonly ExpectedFailure[],
  checkId: string,
  requirementIds: readonly string[],
  at: Date = new Date(),
): ExpectedFailure | undefined {
  return entries.find((e) => !isExpired(e, at) && waiverCovers(e, checkId, requirementIds));
}
