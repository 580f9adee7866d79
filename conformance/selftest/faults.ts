// The self-test's fault table: each fault (a named modifier of the fault proxy), the rule family
// it breaks, the requirement ids the suite must fail on, and the checks to run (`--only`) so a
// fault costs seconds, not a full run. tests/conformance/selftest.{1,2}.test.ts run them one at a time
// against the reference service; selftest/README.md shows the table. One file per topic: faults/.

import type { FaultCase } from './faults/faultCase.ts';
import { ASSET_FEED_SESSION_FAULTS } from './faults/assetsFeedsSessions.ts';
import { ITEM_FAULTS } from './faults/items.ts';
import { LIST_FAULTS } from './faults/lists.ts';
import { ONTOLOGY_FAULTS } from './faults/ontology.ts';
import { RATE_LIMIT_FAULTS } from './faults/rateLimits.ts';
import { WEBHOOK_FAULTS } from './faults/webhooks.ts';

export type { FaultCase, FaultEnv } from './faults/faultCase.ts';

/** Every fault, by topic in run order (rate limits last). */
export const FAULTS: readonly FaultCase[] = [
  ...LIST_FAULTS,
  ...ITEM_FAULTS,
  ...ONTOLOGY_FAULTS,
  ...ASSET_FEED_SESSION_FAULTS,
  ...WEBHOOK_FAULTS,
  ...RATE_LIMIT_FAULTS,
];
