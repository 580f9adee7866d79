// The list filters of DEC-LIST-020…031 on the seeded store: each filter's GET /events?size=20 read
// from the store (`Cache-Control: no-cache`) sequentially, p50/p99, and how many items it matches
// (counted on pages of 2000, up to 10,000). A filter its index (migration 020) does not serve
// shows here as a page as slow as reading the collection.

import { sequentialLatency } from './http.ts';
import { summarise, type LatencySummary } from './stats.ts';

export interface FilterFigure {
  name: string;
  query: string;
  /** Matching events, counted up to MATCH_LIMIT. */
  matches: number;
  latency: LatencySummary;
}

const MATCH_LIMIT = 10_000;

/** The filters measured: each a query on the seeded events (scripts/bench/seed.ts), some found via a first item. */
export function filterQueries(sample: { type?: string; category?: string }): ReadonlyArray<readonly [string, string]> {
  return [
    ['no filter', ''],
    ['sort=modified&sortorder=asc (aliases)', 'sort=modified&sortorder=asc'],
    ['search, one word', 'search=molen'],
    ['search, two word prefixes', 'search=molen%20utre'],
    ['search, no match', 'search=xylofoon'],
    ['types, a rare id', 'types=9.9.7'],
    ...(sample.type === undefined ? [] : [['types, a common id', `types=${encodeURIComponent(sample.type)}`] as const]),
    ...(sample.category === undefined
      ? []
      : [['categories', `categories=${encodeURIComponent(sample.category)}`] as const]),
    ['lang=en', 'lang=en'],
    ['city', 'city=Middelburg'],
    ['userorganisation', 'userorganisation=vvv-zeeland'],
    ['externalid, no match', 'externalid=bench-none'],
    ['owner, one editor', 'owner=redactie7%40vvv-zeeland.example'],
    ['owner, no match', 'owner=nobody%40bench.example'],
    ['keywords, one', 'keywords=jazz'],
    ['keywords, two', 'keywords=jazz,festival'],
    ['keywords, no match', 'keywords=xylofoon'],
    ['markers', 'markers=old'],
    ['markers, exclusion only', 'markers=!old'],
    ['event dates, one week', 'eventDateRangeStart=2027-09-01&eventDateRangeEnd=2027-09-07'],
    ['event dates, from a late day on', 'eventDateRangeStart=2028-05-01'],
    ['deleted=true', 'deleted=true'],
    [
      "the operator CLI's combined request",
      'search=molen&types=9.9.7&lang=nl&city=Amsterdam&eventDateRangeStart=2027-01-01&eventDateRangeEnd=2027-12-31&sort=created&sortorder=asc',
    ],
  ];
}

export async function measureFilters(
  baseUrl: string,
  token: string,
  options: { iterations: number; warmup: number },
  log: (line: string) => void,
): Promise<FilterFigure[]> {
  const sample = await firstIds(baseUrl, token);
  const figures: FilterFigure[] = [];
  for (const [name, query] of filterQueries(sample)) {
    const url = `${baseUrl}/events?size=20${query === '' ? '' : `&${query}`}`;
    const timed = await sequentialLatency(url, token, { ...options, headers: { 'cache-control': 'no-cache' } });
    const figure = {
      name,
      query,
      matches: await countMatches(baseUrl, token, query),
      latency: summarise(timed.samples),
    };
    log(
      `[filters] ${name.padEnd(40)} p50 ${figure.latency.p50.toFixed(1)} ms, p99 ${figure.latency.p99.toFixed(1)} ms, ${figure.matches >= MATCH_LIMIT ? `≥ ${MATCH_LIMIT}` : figure.matches} events`,
    );
    figures.push(figure);
  }
  return figures;
}

async function get(url: string, token: string): Promise<unknown[]> {
  const answer = await fetch(url, { headers: { authorization: `Bearer ${token}`, 'cache-control': 'no-cache' } });
  if (!answer.ok) throw new Error(`GET ${url}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as unknown[];
}

async function countMatches(baseUrl: string, token: string, query: string): Promise<number> {
  let count = 0;
  for (let page = 0; count < MATCH_LIMIT; page++) {
    const items = await get(`${baseUrl}/events?size=2000&page=${page}${query === '' ? '' : `&${query}`}`, token);
    count += items.length;
    if (items.length < 2000) break;
  }
  return count;
}

/** A type and a category id of the newest event, so that those filters match real items. */
async function firstIds(baseUrl: string, token: string): Promise<{ type?: string; category?: string }> {
  const [item] = (await get(`${baseUrl}/events?size=1`, token)) as Array<{
    trcItemCategories?: { types?: Array<{ catid?: string }>; categories?: Array<{ catid?: string }> };
  }>;
  const type = item?.trcItemCategories?.types?.[0]?.catid;
  const category = item?.trcItemCategories?.categories?.[0]?.catid;
  return { ...(type === undefined ? {} : { type }), ...(category === undefined ? {} : { category }) };
}
