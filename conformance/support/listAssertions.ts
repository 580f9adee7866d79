// What lists, filters, sorting, paging and the workflow booleans must look like, as assertions
// that read like sentences. Each throws a CheckFailure (received, expected, the exchange) about
// the requirements it is given.

import { WORKFLOW_STATUS } from '../../generated/constants.ts';
import type { HttpResponse } from '../http/httpClient.ts';
import type { Exchange } from '../model/exchange.ts';
import { CheckFailure } from '../model/failure.ts';
import type { FilterCombination } from '../arbitraries/filterCombination.ts';
import type { Item } from './itemTypes.ts';
import type { Page } from './lists.ts';
import { titleOf } from './lists.ts';

export interface Opts {
  requirements?: readonly string[];
  message?: string;
  exchanges?: readonly Exchange[];
}

const ex = (res: HttpResponse | undefined, opts: Opts) => opts.exchanges ?? (res ? [res.exchange] : []);
const label = (item: Item) => `${String(item.trcid)} (${String(item.wfstatus)}, ${String(item.lastupdated)})`;

export function instant(value: unknown): number {
  return typeof value === 'string' ? Date.parse(value) : Number.NaN;
}

// ---------------------------------------------------------------- workflow booleans

export const BOOLEANS_OF: Record<string, { published: boolean; deleted: boolean; offline: boolean }> = {
  approved: { published: true, deleted: false, offline: false },
  readyforvalidation: { published: false, deleted: true, offline: true },
  rejected: { published: false, deleted: true, offline: true },
  archived: { published: false, deleted: true, offline: true },
  deleted: { published: false, deleted: true, offline: true },
};

/** WF-010/WF-011: published, deleted and offline are the table's values for the item's wfstatus. */
export function assertBooleansFollowWfstatus(item: Item, res: HttpResponse | undefined, opts: Opts = {}): void {
  const status = String(item.wfstatus);
  const expected = BOOLEANS_OF[status];
  if (!expected) {
    throw new CheckFailure({
      message:
        opts.message ?? `${label(item)}: wfstatus ${status} is not a stored status (draft is normalised on save)`,
      received: status,
      expected: Object.keys(BOOLEANS_OF).join(' | '),
      pointer: '/wfstatus',
      requirements: opts.requirements,
      exchanges: ex(res, opts),
    });
  }
  const received = { published: item.published, deleted: item.deleted, offline: item.offline };
  if (
    received.published === expected.published &&
    received.deleted === expected.deleted &&
    received.offline === expected.offline
  )
    return;
  throw new CheckFailure({
    message: opts.message ?? `${label(item)}: the legacy booleans do not follow wfstatus ${status}`,
    received,
    expected,
    requirements: booleanRequirements(received, expected, opts.requirements),
    exchanges: ex(res, opts),
  });
}

/** The rules of the booleans themselves, each broken by a different mistake. */
const BOOLEAN_RULES = ['ITEM-017', 'WF-010', 'WF-011', 'WF-012'];

/**
 * Of the requirements a caller names, the rules about the booleans that this mismatch breaks:
 * booleans left out break only ITEM-017 (they are returned for compatibility); a wrong value breaks
 * WF-010 and ITEM-017, an offline that is not the negation of published WF-011, a wrong deleted
 * WF-012. The caller's other requirements (the write that was made) stay.
 */
function booleanRequirements(
  received: Record<string, unknown>,
  expected: Record<string, boolean>,
  requirements: readonly string[] | undefined,
): readonly string[] | undefined {
  if (!requirements) return requirements;
  const absent = Object.values(received).some((v) => typeof v !== 'boolean');
  const broken = absent
    ? ['ITEM-017']
    : [
        'ITEM-017',
        'WF-010',
        ...(received.offline !== !received.published ? ['WF-011'] : []),
        ...(received.deleted !== expected.deleted ? ['WF-012'] : []),
      ];
  const named = requirements.filter((id) => !BOOLEAN_RULES.includes(id) || broken.includes(id));
  return named.length > 0 ? named : requirements;
}

// ---------------------------------------------------------------- filters

/** Why `item` does not satisfy the filters of `combo`, or undefined when it does. */
export function filterViolation(item: Item, combo: FilterCombination): string | undefined {
  if (combo.wfstatus && !combo.wfstatus.includes(String(item.wfstatus)))
    return `wfstatus ${String(item.wfstatus)} is not one of ${combo.wfstatus.join(',')}`;
  if (!combo.wfstatus && item.wfstatus === WORKFLOW_STATUS.deleted)
    return 'a deleted item in a query that does not ask for deleted (hidden from normal queries)';
  if (combo.published === true && item.wfstatus !== WORKFLOW_STATUS.approved)
    return `published=true returned a ${String(item.wfstatus)} item`;
  if (combo.published === false && item.wfstatus === WORKFLOW_STATUS.approved)
    return 'published=false returned an approved item';
  if (combo.trcid !== undefined && item.trcid !== combo.trcid)
    return `trcid ${String(item.trcid)} is not ${combo.trcid}`;
  if (combo.lastupdated !== undefined && !(instant(item.lastupdated) >= instant(combo.lastupdated)))
    return `lastupdated ${String(item.lastupdated)} is before ${combo.lastupdated}`;
  return undefined;
}

/** Which requirement a violation of `filterViolation` is about. */
export function requirementOfViolation(reason: string): string {
  if (reason.startsWith('wfstatus')) return 'FILTER-002';
  if (reason.startsWith('a deleted item')) return 'WF-004';
  if (reason.startsWith('published=true')) return 'FILTER-003';
  if (reason.startsWith('published=false')) return 'DEC-LIST-007';
  if (reason.startsWith('trcid')) return 'FILTER-004';
  return 'FILTER-001';
}

export function assertEveryItemSatisfies(
  items: readonly Item[],
  combo: FilterCombination,
  res: HttpResponse,
  opts: Opts = {},
): void {
  for (const [index, item] of items.entries()) {
    const reason = filterViolation(item, combo);
    if (!reason) continue;
    throw new CheckFailure({
      message: opts.message ?? `${new URL(res.url).search}: item ${index} does not satisfy the filter: ${reason}`,
      received: label(item),
      expected: reason.replace(/^.*?(is not|is before|returned)/, 'an item that satisfies the filter; got one that $1'),
      pointer: `/${index}`,
      requirements: opts.requirements ?? [requirementOfViolation(reason)],
      exchanges: ex(res, opts),
    });
  }
}

/** Every one of `expected` (by trcid) is in `items`. */
export function assertContainsAll(
  items: readonly Item[],
  expected: readonly Item[],
  res: HttpResponse | undefined,
  opts: Opts = {},
): void {
  const seen = new Set(items.map((i) => i.trcid));
  const missing = expected.filter((e) => !seen.has(e.trcid));
  if (missing.length === 0) return;
  throw new CheckFailure({
    message: opts.message ?? `${missing.length} item(s) that match the query are missing from the answer`,
    received: `${items.length} item(s), without ${missing.map(label).join(', ')}`,
    expected: `every matching item, including ${missing.map((m) => String(m.trcid)).join(', ')}`,
    requirements: opts.requirements,
    exchanges: ex(res, opts),
  });
}

/** None of `items` has one of `trcids`. */
export function assertContainsNone(
  items: readonly Item[],
  trcids: Iterable<string>,
  res: HttpResponse | undefined,
  opts: Opts = {},
): void {
  const banned = new Set(trcids);
  const found = items.filter((i) => typeof i.trcid === 'string' && banned.has(i.trcid));
  if (found.length === 0) return;
  throw new CheckFailure({
    message: opts.message ?? `the answer holds ${found.length} item(s) it must not return`,
    received: found.map(label).join(', '),
    expected: 'none of them',
    requirements: opts.requirements,
    exchanges: ex(res, opts),
  });
}

// ---------------------------------------------------------------- sorting

/** The value an item sorts by for `field`: instants for timestamps, the primary title for title. */
export function sortKey(item: Item, field: string): string | number | undefined {
  if (field === 'lastupdated' || field === 'creationdate') return instant(item[field]);
  if (field === 'title') return titleOf(item);
  const v = item[field];
  return typeof v === 'string' || typeof v === 'number' ? v : undefined;
}

/** Code-point comparison (DEC-LIST-003): upper case before lower case, the same on every locale. */
export function compareKeys(a: string | number | undefined, b: string | number | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : 1;
}

/**
 * `items` are in `order` by `field`. With `tiebreaker`, items with equal keys must be in
 * ascending id order (DEC-LIST-003).
 */
export function assertSortedBy(
  items: readonly Item[],
  field: string,
  order: 'ASC' | 'DESC',
  res: HttpResponse | undefined,
  opts: Opts & { tiebreaker?: boolean } = {},
): void {
  const sign = order === 'ASC' ? 1 : -1;
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1]!, items[i]!];
    const c = compareKeys(sortKey(a, field), sortKey(b, field)) * sign;
    const broken = c > 0 || (opts.tiebreaker === true && c === 0 && compareKeys(String(a.id), String(b.id)) > 0);
    if (!broken) continue;
    const what = c > 0 ? `${field} ${order}` : `id ascending among equal ${field} values`;
    throw new CheckFailure({
      message: opts.message ?? `items ${i - 1} and ${i} are not in ${what} order`,
      received: `${JSON.stringify(sortKey(a, field))} (${String(a.id)}) before ${JSON.stringify(sortKey(b, field))} (${String(b.id)})`,
      expected: `sorted by ${what}`,
      pointer: `/${i}`,
      requirements: opts.requirements,
      exchanges: ex(res, opts),
    });
  }
}

// ---------------------------------------------------------------- paging

/**
 * The pages, once the boundary repeats of keyset paging are removed, are exactly `expected`
 * (by id, in order): nothing missing, nothing twice. Only items among `expected` are compared
 * (others may be written by someone else meanwhile).
 */
export function assertPagesAreDisjointAndComplete(
  pages: readonly Page[],
  expected: readonly Item[],
  opts: Opts & { keyset?: boolean } = {},
): void {
  const wanted = new Set(expected.map((e) => String(e.id)));
  const seen: string[] = [];
  for (const page of pages) {
    for (const [index, item] of page.items.entries()) {
      const id = String(item.id);
      if (!wanted.has(id)) continue;
      const repeat = seen.includes(id);
      // Keyset: a boundary item (the first items of a page, at the bound) comes back by design.
      const boundary =
        opts.keyset === true && page.from !== undefined && instant(item.lastupdated) === instant(page.from);
      if (repeat && !boundary) {
        throw new CheckFailure({
          message:
            opts.message ?? `page ${page.index} repeats item ${String(item.trcid)} that an earlier page already held`,
          received: `${String(item.trcid)} at /${index} of page ${page.index}`,
          expected: 'each item on exactly one page',
          requirements: opts.requirements,
          exchanges: opts.exchanges ?? [page.res.exchange],
        });
      }
      if (!repeat) seen.push(id);
    }
  }
  const missing = expected.filter((e) => !seen.includes(String(e.id)));
  if (missing.length > 0) {
    throw new CheckFailure({
      message: opts.message ?? `${missing.length} item(s) are on no page`,
      received: `${seen.length} of ${expected.length} items over ${pages.length} page(s)`,
      expected: `every item once; missing ${missing.map((m) => String(m.trcid)).join(', ')}`,
      requirements: opts.requirements,
      exchanges: opts.exchanges ?? pages.slice(-2).map((p) => p.res.exchange),
    });
  }
  const order = expected.map((e) => String(e.id));
  if (seen.join() !== order.join()) {
    throw new CheckFailure({
      message: opts.message ?? 'the pages hold every item once, but not in the order of the unpaged list',
      received: seen.join(', '),
      expected: order.join(', '),
      requirements: opts.requirements,
      exchanges: opts.exchanges ?? pages.map((p) => p.res.exchange).slice(0, 3),
    });
  }
}

/** PAGE-004: each keyset page after the first starts with the item(s) at its inclusive bound. */
export function assertBoundaryItemComesBack(previous: Page, next: Page, opts: Opts = {}): void {
  const boundary = previous.items.at(-1);
  if (!boundary) return;
  if (next.items.some((i) => i.id === boundary.id)) return;
  throw new CheckFailure({
    message:
      opts.message ??
      `keyset page ${next.index} (lastupdated=${String(next.from)}) does not return the boundary item ${String(boundary.trcid)} again; the lastupdated filter must be inclusive (>=)`,
    received: next.items.slice(0, 3).map(label).join(', ') || '(empty page)',
    expected: `${label(boundary)} among the first items`,
    requirements: opts.requirements,
    exchanges: opts.exchanges ?? [next.res.exchange],
  });
}

/**
 * Keyset paging that started at the first item's own lastupdated is complete: the first page
 * holds that item and each later page returns the previous page's boundary item (the bound is
 * inclusive: PAGE-004, FILTER-001), and the pages, the boundary repeats aside, hold every expected
 * item once, in order (PAGE-001, PAGE-003).
 */
export function assertKeysetPagingIsComplete(
  pages: readonly Page[],
  expected: readonly Item[],
  bound: { first: Item },
): void {
  const inclusive = ['PAGE-004', 'FILTER-001'];
  const start = pages[0]!;
  assertContainsAll(start.items, [bound.first], start.res, {
    requirements: inclusive,
    message: `the first keyset page (lastupdated=${String(start.from)}, the first item's own lastupdated) does not return that item; the bound is inclusive`,
  });
  for (let i = 1; i < pages.length; i++)
    assertBoundaryItemComesBack(pages[i - 1]!, pages[i]!, { requirements: inclusive });
  // Processing is idempotent: the repeated boundary items are recognised by id, not applied twice.
  assertPagesAreDisjointAndComplete(pages, expected, { keyset: true, requirements: ['PAGE-001', 'PAGE-003'] });
}
