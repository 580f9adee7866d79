// The one way a check fails: throw a CheckFailure. It carries what was received, what was
// expected and the HTTP exchanges that prove it; reporters decide how to show them.

import type { Exchange } from './exchange.ts';

export type FailureKind =
  /** The target behaved differently from a requirement. */
  | 'assertion'
  /** A response did not conform to the bundled spec (status, content type, header, body schema). */
  | 'spec'
  /** The check could not run to the end (network error, bug in the check, timeout). */
  | 'error'
  /** Certification profile: a MUST check was skipped, and could-not-verify is not a pass. */
  | 'not-verified';

export interface CheckFailureInit {
  message: string;
  received?: unknown;
  expected?: unknown;
  /** JSON pointer (or `header/<name>`, `status`) of what failed, when there is one. */
  pointer?: string;
  /** The requirement ids this failure is about; default: every requirement of the check. */
  requirements?: readonly string[];
  exchanges?: readonly Exchange[];
  kind?: FailureKind;
}

export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
  readonly received: unknown;
  readonly expected: unknown;
  readonly pointer: string | undefined;
  readonly requirements: readonly string[] | undefined;
  readonly exchanges: readonly Exchange[];
  readonly kind: FailureKind;

  constructor(init: CheckFailureInit) {
    super(init.message);
    this.received = init.received;
    this.expected = init.expected;
    this.pointer = init.pointer;
    this.requirements = init.requirements;
    this.exchanges = init.exchanges ?? [];
    this.kind = init.kind ?? 'assertion';
  }
}

export function isCheckFailure(error: unknown): error is CheckFailure {
  return error instanceof CheckFailure || (error as { name?: unknown } | null)?.name === 'CheckFailure';
}

/** Thrown by `ctx.skip(reason)`: the check does not apply to this target. */
export class CheckSkipped extends Error {
  override readonly name = 'CheckSkipped';
}

/**
 * The check needs something the target does not offer where the interface leaves it open (e.g.
 * no move into `archived` through the API): its requirements cannot be observed on this target.
 * Reported as not verifiable black-box, never as a failure or a skip.
 */
export class CheckUnobservable extends Error {
  override readonly name = 'CheckUnobservable';
}
