import { PAGE_SIZE } from '../../../generated/constants.ts';
import type { EntityType } from '../domain/entityRules.ts';
import { parseLastupdated } from '../domain/timestamps.ts';
import type { ListItemsParams } from '../storage/items/listItems.ts';
import type { ItemScopeHolder } from './access.ts';
import { filtersOf, sortFieldOf, sortOrderOf, type ItemListQuery } from './listFilterQuery.ts';

// @implements LIST-001, SCOPE-001
// A list request (already checked against the spec, LIST-001) as a storage query. The scope comes
// from the caller, never from the query: filters can only narrow it (SCOPE-001, DEC-LIST-006).

export const DEFAULT_PAGE_SIZE = PAGE_SIZE.default; // DEC-LIST-001

export type { ItemListQuery } from './listFilterQuery.ts';

export interface ListQuery {
  params: ListItemsParams;
  excludePatternDates: boolean;
}

// @implements FILTER-002, FILTER-003, FILTER-004, FILTER-005, PAGE-002, SYNC-005
export function listQueryOf(query: Readonly<ItemListQuery>, entitytype: EntityType, scope: ItemScopeHolder): ListQuery {
  const size = query.size ?? DEFAULT_PAGE_SIZE;
  const page = query.page ?? 0;
  const params: ListItemsParams = {
    entitytype,
    scope: { userorganisations: scope.organisations, wfstatus: scope.wfstatus },
    sortField: sortFieldOf(query) ?? 'lastupdated',
    // DEC-LIST-004: either letter case.
    sortOrder: sortOrderOf(query)?.toUpperCase() === 'ASC' ? 'ASC' : 'DESC',
    limit: size,
    // DEC-LIST-002: zero-based, on the same filtered and sorted result; a page far past the end is empty.
    offset: Math.min(page * size, Number.MAX_SAFE_INTEGER),
  };
  // The spec types lastupdated as a string: its form is DEC-LIST-005's, read here (400 if unparseable).
  if (query.lastupdated !== undefined) params.lastupdatedFrom = parseLastupdated(query.lastupdated);
  if (query.wfstatus !== undefined) params.wfstatus = query.wfstatus;
  if (query.published !== undefined) params.published = query.published;
  if (query.trcid !== undefined) params.trcid = query.trcid;
  if (query.deleted === true) params.includeDeleted = true;
  // DEC-LIST-031: locationId, geo, geodistance, format and the export columns are accepted, not read.
  const filters = filtersOf(query);
  if (filters !== undefined) params.filters = filters;
  return { params, excludePatternDates: query.excludePatternDates === true };
}
