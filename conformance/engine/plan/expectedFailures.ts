// Known failures of a target, kept in a file with a reason per entry (YAML or JSON list):
//
//   - requirement: RATE-004
//     reason: Prism does not rate limit
//   - check: limits.size-cap
//     reason: Prism answers 422 for size above the schema maximum
//
// A listed check that fails is reported as "expected failure" and does not fail the run; a
// listed check that passes is an "unexpected pass" and does, so the file stays true.

import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { globToRegExp } from './glob.ts';

export interface ExpectedFailure {
  check?: string;
  requirement?: string;
  reason: string;
}

export class ExpectedFailuresError extends Error {
  override readonly name = 'ExpectedFailuresError';
}

export function parseExpectedFailures(text: string, source: string): ExpectedFailure[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw new ExpectedFailuresError(`${source} is not valid YAML/JSON: ${(error as Error).message}`);
  }
  const list = Array.isArray(doc) ? doc : (doc as { expectedFailures?: unknown } | null)?.expectedFailures;
  if (!Array.isArray(list))
    throw new ExpectedFailuresError(`${source} must be a list of {check | requirement, reason}`);
  return list.map((raw: Record<string, unknown>, i) => {
    const where = `${source} entry ${i}`;
    const check = typeof raw?.check === 'string' ? raw.check : undefined;
    const requirement = typeof raw?.requirement === 'string' ? raw.requirement : undefined;
    if ((check === undefined) === (requirement === undefined))
      throw new ExpectedFailuresError(`${where}: give exactly one of "check" or "requirement"`);
    if (typeof raw.reason !== 'string' || raw.reason.trim() === '')
      throw new ExpectedFailuresError(`${where}: a non-empty "reason" is required`);
    return check !== undefined ? { check, reason: raw.reason } : { requirement: requirement!, reason: raw.reason };
  });
}

export async function loadExpectedFailures(file: string): Promise<ExpectedFailure[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ExpectedFailuresError(`cannot read ${file}: ${(error as Error).message}`);
  }
  return parseExpectedFailures(text, file);
}

/** The entry that covers a check (by its id, or one of the given requirement ids). */
export function findExpectedFailure(
  entries: readonly ExpectedFailure[],
  checkId: string,
  requirementIds: readonly string[],
): ExpectedFailure | undefined {
  return entries.find((e) =>
    e.check !== undefined
      ? globToRegExp(e.check).test(checkId)
      : requirementIds.some((r) => globToRegExp(e.requirement!).test(r)),
  );
}
