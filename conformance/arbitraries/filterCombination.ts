// A valid combination of the list filters and sort (wfstatus, published, trcid, lastupdated,
// sortField, sortOrder), built around the suite's own items so that answers are not empty:
// trcids and lastupdated bounds come from the items the check wrote (a bound may sit 1 ms
// before, on or 1 ms after an item's stamp).
//
//   fc.sample(filterCombination({ trcids: ['ctf-…-1'], stamps: ['2026-11-20T08:30:00.123Z'] }), 1)

import fc from 'fast-check';
import { WORKFLOW_STATUSES } from '../../generated/constants.ts';

export type SortField = 'lastupdated' | 'creationdate' | 'title' | 'trcid' | 'slug' | 'id' | 'wfstatus';

export interface FilterCombination {
  wfstatus?: string[];
  published?: boolean;
  trcid?: string;
  lastupdated?: string;
  sortField?: SortField;
  sortOrder?: 'ASC' | 'DESC';
}

export interface FilterCombinationConstraints {
  /** trcids to filter on (the suite's own items; one may also be a trcid no item has). */
  trcids: readonly string[];
  /** lastupdated values of those items, as the target sent them. */
  stamps: readonly string[];
  /** Statuses to choose from (default: all six). */
  statuses?: readonly string[];
  /** Sort fields to choose from (default: lastupdated, creationdate, title, trcid). */
  sortFields?: readonly SortField[];
  /** Allow `published` (default true). */
  published?: boolean;
}

const STATUSES = [...WORKFLOW_STATUSES];

function shifted(stamp: string, ms: number): string {
  return ms === 0 ? stamp : new Date(Date.parse(stamp) + ms).toISOString();
}

export function filterCombination(constraints: FilterCombinationConstraints): fc.Arbitrary<FilterCombination> {
  const statuses = constraints.statuses ?? STATUSES;
  const sortFields = constraints.sortFields ?? ['lastupdated', 'creationdate', 'title', 'trcid'];
  const model = {
    wfstatus: fc.subarray([...statuses], { minLength: 1 }),
    published: constraints.published === false ? fc.constant(undefined) : fc.boolean(),
    trcid: fc.constantFrom(...constraints.trcids),
    lastupdated: fc
      .tuple(fc.constantFrom(...constraints.stamps), fc.constantFrom(-1, 0, 1))
      .map(([s, ms]) => shifted(s, ms)),
    sortField: fc.constantFrom(...sortFields),
    sortOrder: fc.constantFrom('ASC' as const, 'DESC' as const),
  };
  return fc.record(model, { requiredKeys: [] }).map((combo) => {
    const out: FilterCombination = {};
    for (const [k, v] of Object.entries(combo)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
    return out;
  });
}

/** The query string values of a combination (wfstatus comma-separated). */
export function toQuery(combo: FilterCombination): Record<string, string | number | boolean> {
  const q: Record<string, string | number | boolean> = {};
  if (combo.wfstatus) q.wfstatus = combo.wfstatus.join(',');
  if (combo.published !== undefined) q.published = combo.published;
  if (combo.trcid !== undefined) q.trcid = combo.trcid;
  if (combo.lastupdated !== undefined) q.lastupdated = combo.lastupdated;
  if (combo.sortField !== undefined) q.sortField = combo.sortField;
  if (combo.sortOrder !== undefined) q.sortOrder = combo.sortOrder;
  return q;
}
