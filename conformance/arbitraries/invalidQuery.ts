// An invalid query of a list endpoint: a wrong type, an out-of-range size or page, a bad enum
// value, an unparseable timestamp or an unknown parameter. Each case names the decision that
// makes it a 400 (the interface shows none of these statuses; a 5xx is never right).
//
//   fc.sample(invalidQuery({ collection: '/events' }), 3)
//   // [{ query: { sortOrder: 'sideways' }, reason: 'sortOrder is not ASC or DESC', decision: 'DEC-LIST-004' }, …]

import fc from 'fast-check';
import { WORKFLOW_STATUSES } from '../../generated/constants.ts';

export interface InvalidQuery {
  query: Record<string, string>;
  reason: string;
  /** The decision that makes the target answer 400. */
  decision: string;
}

export type InvalidQueryKind =
  | 'size'
  | 'page'
  | 'sortField'
  | 'sortOrder'
  | 'lastupdated'
  | 'wfstatus'
  | 'published'
  | 'excludePatternDates'
  | 'unknown';
export const INVALID_QUERY_KINDS: readonly InvalidQueryKind[] = [
  'size',
  'page',
  'sortField',
  'sortOrder',
  'lastupdated',
  'wfstatus',
  'published',
  'excludePatternDates',
  'unknown',
];

export interface InvalidQueryConstraints {
  /** The list the query goes to: `excludePatternDates` exists on /events only. */
  collection?: string;
  kinds?: readonly InvalidQueryKind[];
}

const word = (min = 1, max = 8) =>
  fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: min, maxLength: max });

/** A word that is none of `known` (compared without letter case). */
const unknownWord = (known: readonly string[]) =>
  word(3, 10).filter((w) => !known.some((k) => k.toLowerCase() === w.toLowerCase()) && w !== 'true' && w !== 'false');

const SORT_FIELDS = [
  'lastupdated',
  'creationdate',
  'title',
  'trcid',
  'id',
  'slug',
  'wfstatus',
  'entitytype',
  'userorganisation',
  'externalId',
];
const STATUSES = [...WORKFLOW_STATUSES];
const PARAMS = [
  'size',
  'page',
  'sortfield',
  'sortorder',
  'lastupdated',
  'wfstatus',
  'published',
  'trcid',
  'excludepatterndates',
];

// An empty value is left out: the reference reads `?page=` as no page, and no decision says otherwise.
const notAnInteger = fc.oneof(word(), fc.constantFrom('1.5', '1e3', '0x10', ' ', '2O', 'NaN', 'Infinity', '--1'));

const CASES: Record<InvalidQueryKind, fc.Arbitrary<InvalidQuery>> = {
  size: fc.oneof(
    notAnInteger.map((v) => ({ query: { size: v }, reason: 'size is not an integer', decision: 'DEC-LIST-001' })),
    fc
      .integer({ min: -1_000_000, max: 0 })
      .map((n) => ({ query: { size: String(n) }, reason: 'size is below 1', decision: 'DEC-LIST-001' })),
  ),
  page: fc.oneof(
    notAnInteger.map((v) => ({ query: { page: v }, reason: 'page is not an integer', decision: 'DEC-LIST-002' })),
    fc
      .integer({ min: -1_000_000, max: -1 })
      .map((n) => ({ query: { page: String(n) }, reason: 'page is negative', decision: 'DEC-LIST-002' })),
  ),
  sortField: unknownWord(SORT_FIELDS).map((v) => ({
    query: { sortField: v },
    reason: 'sortField is not a sortable root-level field',
    decision: 'DEC-LIST-003',
  })),
  sortOrder: unknownWord(['asc', 'desc']).map((v) => ({
    query: { sortOrder: v },
    reason: 'sortOrder is not ASC or DESC',
    decision: 'DEC-LIST-004',
  })),
  lastupdated: fc
    .oneof(
      unknownWord([]),
      fc.constantFrom(
        '2026-13-01',
        '2026-02-30',
        '2026-11-20T25:00:00Z',
        '2026-11-20T10:61:00Z',
        '20261120T',
        'yesterday',
        '2026-11-20T10:00:00+25:00',
        '11/20/2026',
        '2026-11-20 garbage',
      ),
    )
    .map((v) => ({
      query: { lastupdated: v },
      reason: 'lastupdated is not an ISO-8601 date or timestamp',
      decision: 'DEC-LIST-005',
    })),
  wfstatus: fc.tuple(fc.subarray(STATUSES, { maxLength: 2 }), unknownWord(STATUSES)).map(([known, bad]) => ({
    query: { wfstatus: [...known, bad].join(',') },
    reason: `wfstatus holds the unknown status ${bad}`,
    decision: 'DEC-LIST-006',
  })),
  published: unknownWord(['true', 'false']).map((v) => ({
    query: { published: v },
    reason: 'published is not a boolean',
    decision: 'DEC-LIST-007',
  })),
  excludePatternDates: unknownWord(['true', 'false']).map((v) => ({
    query: { excludePatternDates: v },
    reason: 'excludePatternDates is not a boolean',
    decision: 'DEC-ITEM-010',
  })),
  unknown: unknownWord(PARAMS).map((name) => ({
    query: { [`ctf${name}`]: '1' },
    reason: `ctf${name} is not a parameter of the list`,
    decision: 'DEC-LIST-008',
  })),
};

export function invalidQuery(constraints: InvalidQueryConstraints = {}): fc.Arbitrary<InvalidQuery> {
  const kinds = (constraints.kinds ?? INVALID_QUERY_KINDS).filter(
    (k) => k !== 'excludePatternDates' || (constraints.collection ?? '/events') === '/events',
  );
  return fc.oneof(...kinds.map((k) => CASES[k]));
}
