// Self-test, part 2 of 2: the suite must catch broken implementations (support/faultRuns.ts).
// SELFTEST_FAULTS=name,name runs only those faults: `npx vitest run tests/conformance/selftest`.
import { describeFaultRuns } from './support/faultRuns.ts';

describeFaultRuns(1, 2);
