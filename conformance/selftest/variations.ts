// The self-test's conforming variations: the reference service changed in ONE place where the
// interface says "not shown", which a vendor may decide differently and still conform. The
// certification run must pass each of them with no MUST failure, and report the difference from
// our decision as a DECISION deviation (decision-fail on the DEC id). tests/conformance/
// variations.test.ts runs them all at once (one full run) and one at a time (their `checks`).

import type { FaultModifier } from './faultProxy.ts';
import * as m from './modifiers/index.ts';

export interface Variation {
  name: string;
  /** The interface's "not shown" line it exercises. */
  notShown: string;
  /** DEC ids expected as decision deviations. */
  deviations: string[];
  modifiers: () => FaultModifier[];
  /** Limit the targeted run to these checks; default: the whole certification profile. */
  checks?: string[];
  /** Why only its `checks` pass yet: it stays out of the combined full run until it all passes. */
  partial?: string;
  /** Why the suite cannot pass it yet (the tests skip it and say so); remove once it can. */
  pending?: string;
}

export const VARIATIONS: Variation[] = [
  {
    name: 'unknownExtraField',
    notShown:
      'Fields of calendar, contactinfo, files, performers, promotions, seoMetadata, routeInfo and location beyond those named above: not shown.',
    deviations: [],
    modifiers: () => [m.unknownExtraField()],
    partial: 'the suite PUTs back what it read, and the target refuses the extra field (suite-discovery changes that)',
    checks: [
      'lists.bare-array',
      'items.detail-not-limited',
      'paging.keyset-inclusive',
      'dictionary.root',
      'health.responds',
    ],
  },
  {
    name: 'userorganisationsMap',
    notShown: 'GET /dictionary/userorganisations: Shape beyond these: not shown.',
    deviations: ['DEC-DICT-002'],
    modifiers: () => [m.userorganisationsMap()],
    checks: ['dictionary.userorganisations'],
    pending: 'the checks read the answer as an array; discovering its shape is suite-discovery’s part',
  },
];
