// Listing and paging: one list call, paging by page number or by keyset, and the items of pages.

import type { HttpResponse, TokenChoice } from '../http/httpClient.ts';
import { variantsOf } from '../model/variants.ts';
import { CheckFailure } from '../model/failure.ts';
import { assertBodyIsArray, assertStatus } from './assert.ts';
import type { CollectionPath, Ctx, Item, Query } from './itemTypes.ts';
import { writerToken } from './organisations.ts';

export interface ListOptions {
  token?: TokenChoice;
  /** `true` (default) fails on a spec problem at once; `'defer'` leaves it to the check. */
  validate?: true | 'defer';
  requirements?: readonly string[];
}

export interface ListAnswer {
  res: HttpResponse;
  items: Item[];
}

/** One list call; fails unless it answers 200 with a bare array. */
export async function listItems(
  ctx: Ctx,
  collection: CollectionPath,
  query: Query,
  options: ListOptions = {},
): Promise<ListAnswer> {
  const res = await ctx.http.get(collection, {
    query,
    token: options.token ?? writerToken(ctx),
    validate: options.validate ?? true,
  });
  assertStatus(res, 200, { requirements: options.requirements });
  return { res, items: assertBodyIsArray(res, { requirements: options.requirements }) as Item[] };
}

export interface PageOptions extends ListOptions {
  size: number;
  /** Stop (and fail) after this many pages: a target that never answers a short page must not loop. */
  maxPages?: number;
}

export interface Page extends ListAnswer {
  /** 0-based page number or keyset step. */
  index: number;
  /** The lastupdated bound sent (keyset), when there was one. */
  from?: string;
}

/**
 * `page=0,1,2,…` (from the target's first page number) with a fixed size until a page holds
 * fewer than `size` items (PAGE-001, PAGE-002).
 */
export async function pageByNumber(
  ctx: Ctx,
  collection: CollectionPath,
  query: Query,
  options: PageOptions,
): Promise<Page[]> {
  const pages: Page[] = [];
  const maxPages = options.maxPages ?? 50;
  const first = variantsOf(ctx).listFirstPage;
  for (let page = 0; ; page++) {
    const answer = await listItems(ctx, collection, { ...query, size: options.size, page: first + page }, options);
    pages.push({ ...answer, index: page });
    if (answer.items.length < options.size) return pages;
    if (pages.length >= maxPages) throw tooManyPages(collection, options, pages);
  }
}

/**
 * Keyset paging as the interface describes it (PAGE-003): `sortField=lastupdated`,
 * `sortOrder=ASC`, the last item's `lastupdated` as the next inclusive bound, until a short
 * page. The boundary items come back on the next page (PAGE-004); callers dedupe by id.
 * `from` starts at a bound. Fails if a full page does not advance the bound.
 */
export async function pageByKeyset(
  ctx: Ctx,
  collection: CollectionPath,
  query: Query,
  options: PageOptions & { from?: string },
): Promise<Page[]> {
  const pages: Page[] = [];
  const maxPages = options.maxPages ?? 50;
  let from = options.from;
  for (let step = 0; ; step++) {
    const answer = await listItems(
      ctx,
      collection,
      { ...query, sortField: 'lastupdated', sortOrder: 'ASC', size: options.size, lastupdated: from },
      options,
    );
    pages.push({ ...answer, index: step, from });
    if (answer.items.length < options.size) return pages;
    const last = answer.items.at(-1)?.lastupdated;
    if (typeof last !== 'string') {
      throw new CheckFailure({
        message: `keyset page ${step} of ${collection}: the last item has no lastupdated`,
        received: answer.items.at(-1),
        expected: 'an item with lastupdated',
        requirements: options.requirements,
        exchanges: [answer.res.exchange],
      });
    }
    if (from !== undefined && Date.parse(last) <= Date.parse(from)) {
      throw new CheckFailure({
        message: `keyset paging of ${collection} with size ${options.size} does not advance: a full page ends at the bound it started from (${from}); ${options.size} or more items share one lastupdated, or the order is not ascending`,
        received: last,
        expected: `a lastupdated later than ${from}`,
        requirements: options.requirements,
        exchanges: [answer.res.exchange],
      });
    }
    if (pages.length >= maxPages) throw tooManyPages(collection, options, pages);
    from = last;
  }
}

function tooManyPages(collection: CollectionPath, options: PageOptions, pages: Page[]): CheckFailure {
  return new CheckFailure({
    message: `${collection}: still full pages after ${pages.length} pages of ${options.size}; the suite stops here instead of paging on`,
    received: `${pages.length} full pages`,
    expected: 'a page holding fewer items than size',
    requirements: options.requirements,
    exchanges: [pages.at(-1)!.res.exchange],
  });
}

/** Items of the pages in order, each id once (keyset pages repeat the boundary item). */
export function distinctItems(pages: readonly Page[]): Item[] {
  const seen = new Set<string>();
  const out: Item[] = [];
  for (const page of pages) {
    for (const item of page.items) {
      const key = String(item.id ?? item.trcid);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(item);
    }
  }
  return out;
}

/** Only the items whose trcid is one of `trcids`, in the order they came. */
export function onlyThese(items: readonly Item[], trcids: Iterable<string>): Item[] {
  const wanted = new Set(trcids);
  return items.filter((i) => typeof i.trcid === 'string' && wanted.has(i.trcid));
}

/** The Dutch (else first) title of an item. */
export function titleOf(item: Item): string | undefined {
  const details = Array.isArray(item.trcItemDetails)
    ? (item.trcItemDetails as { lang?: string; title?: string }[])
    : [];
  return (details.find((d) => d.lang === 'nl') ?? details[0])?.title;
}
