import type { operations } from '../../../generated/types.ts';
import { ruleViolation } from '../domain/ruleViolation.ts';
import type { ItemSortField } from '../storage/items/listItems.ts';
import { textSearchQuery, type ItemFilters, type TagFilter } from '../storage/items/listFilters.ts';

// The operator's list parameters (DEC-LIST-020…031), read from a query already checked against
// the spec: its sort aliases as the interface's sort, its filters as storage filters.

/** An item list's query as validated against the spec; the event list's, a superset of the others'. */
export type ItemListQuery = NonNullable<operations['listEvents']['parameters']['query']>;

/** The operator's `sort` names that differ from a `sortField` (DEC-LIST-020). */
const SORT_ALIASES: Readonly<Record<string, ItemSortField>> = { modified: 'lastupdated', created: 'creationdate' };

// @implements DEC-LIST-020
/** `sortField`, else the operator's `sort`; the interface's name wins when both are sent. */
export function sortFieldOf(query: Readonly<ItemListQuery>): ItemSortField | undefined {
  if (query.sortField !== undefined) return query.sortField;
  if (query.sort === undefined) return undefined;
  return SORT_ALIASES[query.sort] ?? (query.sort as ItemSortField);
}

/** `sortOrder`, else the operator's `sortorder`, as sent. */
export function sortOrderOf(query: Readonly<ItemListQuery>): string | undefined {
  return query.sortOrder ?? query.sortorder;
}

/** The storage filters of a list query; undefined when it names none. A search without words is a 400. */
export function filtersOf(query: Readonly<ItemListQuery>): ItemFilters | undefined {
  const filters: ItemFilters = {};
  if (query.search !== undefined) {
    const search = textSearchQuery(query.search);
    if (search === undefined)
      throw ruleViolation(
        'query/search',
        `search must hold at least one word of letters or digits (received: ${JSON.stringify(query.search)})`,
      );
    filters.search = search;
  }
  if (query.types !== undefined) filters.types = query.types;
  if (query.categories !== undefined) filters.categories = query.categories;
  if (query.userorganisation !== undefined) filters.userorganisation = query.userorganisation;
  if (query.externalid !== undefined) filters.externalId = query.externalid;
  if (query.lang !== undefined) filters.lang = query.lang;
  if (query.city !== undefined) filters.city = query.city;
  if (query.owner !== undefined) filters.owner = query.owner;
  if (query.keywords !== undefined) filters.keywords = tagFilterOf(query.keywords);
  if (query.markers !== undefined) filters.markers = tagFilterOf(query.markers);
  if (query.eventDateRangeStart !== undefined || query.eventDateRangeEnd !== undefined) {
    filters.eventDays = {};
    if (query.eventDateRangeStart !== undefined) filters.eventDays.from = query.eventDateRangeStart;
    if (query.eventDateRangeEnd !== undefined) filters.eventDays.to = query.eventDateRangeEnd;
  }
  return Object.keys(filters).length === 0 ? undefined : filters;
}

/** DEC-LIST-029: `!x` is a value not to hold; the rest must all be held; case and spaces ignored. */
function tagFilterOf(values: readonly string[]): TagFilter {
  const all: string[] = [];
  const none: string[] = [];
  for (const value of values) {
    const excluded = value.startsWith('!');
    const tag = (excluded ? value.slice(1) : value).trim().toLowerCase();
    if (tag !== '') (excluded ? none : all).push(tag);
  }
  return { all, none };
}
