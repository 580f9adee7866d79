// @implements DEC-LIST-021, DEC-LIST-022, DEC-LIST-023, DEC-LIST-024, DEC-LIST-025, DEC-LIST-026, DEC-LIST-027, DEC-LIST-028, DEC-LIST-029
// The operator's list filters as SQL on the stored document. Each expression below is written
// exactly as its index in migration 020 (DEC-LIST-032): PostgreSQL uses an expression index only
// for the same expression, so listFilters.test.ts holds the two together. Search, keywords and
// markers read columns generated from the document instead: their index hits are rechecked, and
// computing them again for each row was the slow part.

/** Indexed expressions or stored columns, one per filter, the same text as in 020_list_filter_indexes.sql. */
export const FILTER_EXPRESSIONS = {
  /** A stored column, generated from the titles and descriptions (migration 020). */
  text: `search_vector`,
  langs: `jsonb_path_query_array(doc, '$.trcItemDetails[*].lang')`,
  types: `jsonb_path_query_array(doc, '$.trcItemCategories.types[*].catid')`,
  categories: `jsonb_path_query_array(doc, '$.trcItemCategories.categories[*].catid')`,
  city: `lower(btrim(doc #>> '{location,address,city}'))`,
  owner: `lower(doc ->> 'owner')`,
  keywords: `keyword_tags`,
  markers: `marker_tags`,
  firstDay: `item_first_day(doc)`,
  lastDay: `item_last_day(doc)`,
} as const;

/** Values to hold (`all`) and not to hold (`none`), lower case (DEC-LIST-029). */
export interface TagFilter {
  all: readonly string[];
  none: readonly string[];
}

export interface ItemFilters {
  /** A `to_tsquery('simple', …)` text made by textSearchQuery. */
  search?: string;
  types?: readonly string[];
  categories?: readonly string[];
  userorganisation?: string;
  externalId?: string;
  lang?: string;
  city?: string;
  owner?: string;
  keywords?: TagFilter;
  markers?: TagFilter;
  /** Days `yyyy-mm-dd`, inclusive; either may be absent. */
  eventDays?: { from?: string; to?: string };
}

/**
 * The words of a search value as a prefix query, every word required (DEC-LIST-021); undefined
 * when it has no word. Words are letters and digits of any script; quoting each keeps the
 * query's syntax out of the user's hands.
 */
export function textSearchQuery(value: string): string | undefined {
  const words = value
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (words.length === 0) return undefined;
  return words.map((word) => `'${word}':*`).join(' & ');
}

/** The WHERE clauses of `filters`, their values pushed through `param`. */
export function filterClauses(filters: ItemFilters, param: (value: unknown) => string): string[] {
  const e = FILTER_EXPRESSIONS;
  const where: string[] = [];
  if (filters.search !== undefined) where.push(`${e.text} @@ to_tsquery('simple', ${param(filters.search)})`);
  if (filters.lang !== undefined) where.push(`${e.langs} ? ${param(filters.lang)}`);
  if (filters.types !== undefined) where.push(`${e.types} ?| ${param([...filters.types])}::text[]`);
  if (filters.categories !== undefined) where.push(`${e.categories} ?| ${param([...filters.categories])}::text[]`);
  if (filters.userorganisation !== undefined) where.push(`userorganisation = ${param(filters.userorganisation)}`);
  if (filters.externalId !== undefined) where.push(`external_id = ${param(filters.externalId)}`);
  if (filters.city !== undefined) where.push(`${e.city} = ${param(filters.city.trim().toLowerCase())}`);
  if (filters.owner !== undefined) where.push(`${e.owner} = ${param(filters.owner.toLowerCase())}`);
  for (const [expression, tags] of [
    [e.keywords, filters.keywords],
    [e.markers, filters.markers],
  ] as const) {
    if (tags === undefined) continue;
    if (tags.all.length > 0) where.push(`${expression} @> ${param([...tags.all])}::text[]`);
    if (tags.none.length > 0) where.push(`NOT (${expression} && ${param([...tags.none])}::text[])`);
  }
  if (filters.eventDays !== undefined) where.push(...dayClauses(filters.eventDays, param));
  return where;
}

/**
 * DEC-LIST-027: the indexed first and last day narrow the rows; the path then checks that one
 * single date or one pattern period really falls in the range (an event on 1 January and 31
 * December has no day in June). Dates compare as text: ISO days and local timestamps sort so.
 */
function dayClauses(days: { from?: string; to?: string }, param: (value: unknown) => string): string[] {
  const from = days.from ?? '0000-01-01';
  const to = days.to ?? '9999-12-31';
  const where: string[] = [];
  if (days.from !== undefined) where.push(`${FILTER_EXPRESSIONS.lastDay} >= ${param(from)}`);
  if (days.to !== undefined) where.push(`${FILTER_EXPRESSIONS.firstDay} <= ${param(to)}`);
  // `before` is the day after `to`: a single date `2026-12-31T20:00:00` is on or before 2026-12-31.
  const vars = param(JSON.stringify({ from, before: nextDay(to) }));
  where.push(
    `(jsonb_path_exists(doc, '$.calendar.singleDates[*] ? (@.date >= $from && @.date < $before)', ${vars}::jsonb)
      OR jsonb_path_exists(doc, '$.calendar.patternDates[*] ? (@.startdate < $before && (@.enddate >= $from || !exists(@.enddate)))', ${vars}::jsonb))`,
  );
  return where;
}

/** The ISO day after `day` (`yyyy-mm-dd`); the year 9999 ends at `9999-12-32`, after every date. */
function nextDay(day: string): string {
  if (day === '9999-12-31') return '9999-12-32';
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}
