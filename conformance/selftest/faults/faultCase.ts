// One row of the self-test's fault table (see ../faults.ts).

import type { FaultModifier } from '../faultProxy.ts';
import type { SecretBook } from '../traffic.ts';

export interface FaultEnv {
  tokens: { consumer: string; full: string; admin: string };
  secrets: SecretBook;
}

export interface FaultCase {
  /** The modifier's name (as it counts in the proxy's `applied`). */
  name: string;
  family: string;
  /** What the broken service does. */
  fault: string;
  /** Requirement ids the suite must fail. */
  detects: readonly string[];
  /** Other requirement ids the same fault breaks as well (failing there too is right). */
  alsoBreaks?: readonly string[];
  /** Check ids to run. */
  checks: readonly string[];
  make(env: FaultEnv): FaultModifier[];
}
