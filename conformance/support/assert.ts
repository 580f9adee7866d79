// Reusable assertions that read like sentences. Each throws a CheckFailure with what was
// received, what was expected and the exchange, narrowed to the requirements it is about.

import { isDeepStrictEqual } from 'node:util';
import type { HttpResponse } from '../http/httpClient.ts';
import { CheckFailure } from '../model/failure.ts';
import { isObject } from '../../spec/json.ts';

export interface AssertOptions {
  /** The requirements a failure is about (default: all of the check's). */
  requirements?: readonly string[];
  message?: string;
}

function label(res: HttpResponse): string {
  return `${res.exchange.request.method} ${new URL(res.url).pathname}${new URL(res.url).search}`;
}

export function assertStatus(
  res: HttpResponse,
  expected: number | readonly number[],
  options: AssertOptions = {},
): void {
  const allowed = typeof expected === 'number' ? [expected] : expected;
  if (allowed.includes(res.status)) return;
  throw new CheckFailure({
    message: options.message ?? `${label(res)} answered ${res.status}, expected ${allowed.join(' or ')}`,
    received: res.status,
    expected: allowed.join(' or '),
    pointer: 'status',
    requirements: options.requirements,
    exchanges: [res.exchange],
  });
}

export function assertBodyIsArray(res: HttpResponse, options: AssertOptions = {}): unknown[] {
  if (Array.isArray(res.body)) return res.body;
  const received =
    res.body === undefined
      ? `non-JSON body (${res.headers['content-type'] ?? 'no Content-Type'}): ${res.text.slice(0, 80)}`
      : Array.isArray(res.body)
        ? 'array'
        : `JSON ${res.body === null ? 'null' : typeof res.body}`;
  throw new CheckFailure({
    message: options.message ?? `${label(res)} did not answer a bare JSON array`,
    received,
    expected: 'a bare JSON array',
    pointer: '',
    requirements: options.requirements,
    exchanges: [res.exchange],
  });
}

/**
 * The body is a JSON object holding these members with these values; other members are
 * tolerated (unknown extra fields in answers must be tolerated by clients).
 */
export function assertBodyHas(res: HttpResponse, expected: Record<string, unknown>, options: AssertOptions = {}): void {
  const body = res.body;
  if (isObject(body) && Object.entries(expected).every(([k, v]) => isDeepStrictEqual(body[k], v))) return;
  throw new CheckFailure({
    message: options.message ?? `${label(res)} answered a different body`,
    received: res.body === undefined ? res.text.slice(0, 500) : res.body,
    expected,
    requirements: options.requirements,
    exchanges: [res.exchange],
  });
}

/**
 * The check has judged these answers by its own expectation (a refusal it tolerates, a skip, a
 * status it already reported): their deferred spec problems are not to be attributed; forget them.
 */
export function acknowledge(answers: readonly HttpResponse[]): void {
  for (const res of answers) {
    res.problems = [];
    res.assertConforms();
  }
}

/** Forgets the answer's deferred spec problems that `drop` matches; the others stay deferred. */
export function forgetProblems(res: HttpResponse, drop: (problem: HttpResponse['problems'][number]) => boolean): void {
  const kept = res.problems.filter((p) => !drop(p));
  if (kept.length === res.problems.length) return;
  res.problems = kept;
  if (kept.length > 0) {
    res.exchange.problems = kept;
    return;
  }
  delete res.exchange.problems;
  res.assertConforms(); // nothing left: no longer deferred
}

/**
 * Forget the "spec has no such operation" problem of an answer to a path or method the target
 * chose where the interface shows none (see the target variants): there is nothing to validate
 * it against. Other problems stay deferred.
 */
export function forgetUnknownOperation(res: HttpResponse): void {
  forgetProblems(res, (p) => p.kind === 'operation');
}
