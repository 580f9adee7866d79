import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../http/httpClient.ts';
import { CheckFailure } from '../model/failure.ts';
import type { Item } from './itemTypes.ts';
import type { Page } from './lists.ts';
import {
  assertBooleansFollowWfstatus,
  assertBoundaryItemComesBack,
  assertContainsAll,
  assertEveryItemSatisfies,
  assertKeysetPagingIsComplete,
  assertPagesAreDisjointAndComplete,
  assertSortedBy,
  filterViolation,
} from './listAssertions.ts';

const exchange = {
  seq: 1,
  startedAt: '',
  durationMs: 0,
  request: { method: 'GET', url: 'http://t/api/events', headers: {}, bodyBytes: 0, truncated: false },
};
const res = { url: 'http://t/api/events?x=1', exchange } as unknown as HttpResponse;
const item = (n: number, extra: Partial<Item> = {}): Item => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  trcid: `t-${n}`,
  wfstatus: 'approved',
  lastupdated: `2026-11-20T08:30:00.00${n}Z`,
  ...extra,
});
const page = (index: number, items: Item[], from?: string): Page => ({ index, items, from, res });

function failureOf(fn: () => void): CheckFailure {
  try {
    fn();
  } catch (error) {
    if (error instanceof CheckFailure) return error;
    throw error;
  }
  throw new Error('expected a CheckFailure');
}

describe('assertBooleansFollowWfstatus', () => {
  it("when the booleans are the table's for the status, then it passes; when one is flipped, then WF requirements fail", () => {
    expect(() =>
      assertBooleansFollowWfstatus(item(1, { published: true, deleted: false, offline: false }), res),
    ).not.toThrow();
    expect(() =>
      assertBooleansFollowWfstatus(
        item(1, { wfstatus: 'archived', published: false, deleted: true, offline: true }),
        res,
      ),
    ).not.toThrow();
    const failure = failureOf(() =>
      assertBooleansFollowWfstatus(
        item(1, { wfstatus: 'rejected', published: true, deleted: true, offline: true }),
        res,
        { requirements: ['WF-010'] },
      ),
    );
    expect(failure).toMatchObject({
      requirements: ['WF-010'],
      expected: { published: false, deleted: true, offline: true },
    });
  });

  it('when the caller names every boolean rule, then the failure keeps only the rules the mismatch breaks', () => {
    const table = ['WF-002', 'WF-010', 'WF-011', 'WF-012', 'ITEM-017'];
    const requirementsOf = (extra: Partial<Item>) =>
      failureOf(() => assertBooleansFollowWfstatus(item(1, extra), res, { requirements: table })).requirements;
    expect(requirementsOf({ published: undefined, deleted: undefined, offline: undefined })).toEqual([
      'WF-002',
      'ITEM-017',
    ]);
    expect(requirementsOf({ wfstatus: 'rejected', published: false, deleted: false, offline: true })).toEqual([
      'WF-002',
      'WF-010',
      'WF-012',
      'ITEM-017',
    ]);
    expect(requirementsOf({ published: false, deleted: false, offline: false })).toEqual([
      'WF-002',
      'WF-010',
      'WF-011',
      'ITEM-017',
    ]);
  });

  it('when an item is stored as draft, then that is named (draft is normalised on save)', () => {
    expect(failureOf(() => assertBooleansFollowWfstatus(item(1, { wfstatus: 'draft' }), res)).message).toContain(
      'draft is normalised',
    );
  });
});

describe('filters', () => {
  it('when items satisfy every filter, then it passes; a violation names the requirement of the broken filter', () => {
    const combo = { wfstatus: ['approved', 'archived'], lastupdated: '2026-11-20T08:30:00.002Z' };
    expect(() => assertEveryItemSatisfies([item(2), item(3, { wfstatus: 'archived' })], combo, res)).not.toThrow();
    expect(failureOf(() => assertEveryItemSatisfies([item(2), item(1)], combo, res))).toMatchObject({
      requirements: ['FILTER-001'],
      pointer: '/1',
    });
    expect(
      failureOf(() => assertEveryItemSatisfies([item(4, { wfstatus: 'rejected' })], combo, res)).requirements,
    ).toEqual(['FILTER-002']);
    expect(failureOf(() => assertEveryItemSatisfies([item(4, { wfstatus: 'deleted' })], {}, res)).requirements).toEqual(
      ['WF-004'],
    );
    expect(
      failureOf(() => assertEveryItemSatisfies([item(4, { wfstatus: 'rejected' })], { published: true }, res))
        .requirements,
    ).toEqual(['FILTER-003']);
    expect(failureOf(() => assertEveryItemSatisfies([item(4)], { trcid: 't-5' }, res)).requirements).toEqual([
      'FILTER-004',
    ]);
  });

  it("when the bound equals the item's own lastupdated, then the item satisfies it (inclusive)", () => {
    expect(filterViolation(item(3), { lastupdated: '2026-11-20T08:30:00.003Z' })).toBeUndefined();
    expect(filterViolation(item(3), { lastupdated: '2026-11-20T09:30:00.003+01:00' })).toBeUndefined();
    expect(filterViolation(item(3), { lastupdated: '2026-11-20T08:30:00.004Z' })).toMatch(/before/);
  });

  it('when an expected item is missing, then it is named', () => {
    expect(() => assertContainsAll([item(1), item(2)], [item(2)], res)).not.toThrow();
    expect(failureOf(() => assertContainsAll([item(1)], [item(2)], res)).expected).toContain('t-2');
  });
});

describe('assertSortedBy', () => {
  const a = item(1, { title: 'x', trcItemDetails: [{ lang: 'nl', title: 'a' }] });
  const b = item(2, { trcItemDetails: [{ lang: 'nl', title: 'b' }] });
  const b2 = item(3, { trcItemDetails: [{ lang: 'nl', title: 'b' }] });
  it('when the order is right, then it passes, also with the id tiebreaker', () => {
    expect(() => assertSortedBy([a, b, b2], 'title', 'ASC', res, { tiebreaker: true })).not.toThrow();
    expect(() => assertSortedBy([b, b2, a], 'title', 'DESC', res, { tiebreaker: true })).not.toThrow();
    expect(() => assertSortedBy([b2, b, a], 'lastupdated', 'DESC', res)).not.toThrow();
  });

  it('when two items are swapped, or equal titles are not in id order, then the pair is named', () => {
    expect(failureOf(() => assertSortedBy([b, a], 'title', 'ASC', res)).pointer).toBe('/1');
    expect(failureOf(() => assertSortedBy([a, b2, b], 'title', 'ASC', res, { tiebreaker: true })).message).toContain(
      'id ascending',
    );
    expect(() => assertSortedBy([a, b2, b], 'title', 'ASC', res)).not.toThrow();
  });

  it('when trcids differ in letter case, then code-point order puts upper case first', () => {
    expect(() => assertSortedBy([item(1, { trcid: 'Z' }), item(2, { trcid: 'a' })], 'trcid', 'ASC', res)).not.toThrow();
  });
});

describe('paging', () => {
  const all = [item(1), item(2), item(3), item(4), item(5)];
  it('when keyset pages repeat only the boundary item, then they are disjoint and complete', () => {
    const pages = [
      page(0, all.slice(0, 3)),
      page(1, all.slice(2, 5), all[2]!.lastupdated),
      page(2, all.slice(4), all[4]!.lastupdated),
    ];
    expect(() => assertPagesAreDisjointAndComplete(pages, all, { keyset: true })).not.toThrow();
    expect(() => assertBoundaryItemComesBack(pages[0]!, pages[1]!)).not.toThrow();
  });

  it('when the boundary item does not come back (an exclusive filter), then PAGE-004 fails', () => {
    const next = page(1, all.slice(3, 5), all[2]!.lastupdated);
    expect(
      failureOf(() => assertBoundaryItemComesBack(page(0, all.slice(0, 3)), next, { requirements: ['PAGE-004'] }))
        .requirements,
    ).toEqual(['PAGE-004']);
  });

  it('when a page-number page repeats an item, skips one, or changes the order, then it is named', () => {
    expect(
      failureOf(() =>
        assertPagesAreDisjointAndComplete(
          [page(0, all.slice(0, 2)), page(1, all.slice(1, 3)), page(2, all.slice(3))],
          all,
        ),
      ).message,
    ).toContain('repeats');
    expect(
      failureOf(() => assertPagesAreDisjointAndComplete([page(0, all.slice(0, 2)), page(1, all.slice(3))], all))
        .message,
    ).toContain('on no page');
    expect(
      failureOf(() => assertPagesAreDisjointAndComplete([page(0, [all[1]!, all[0]!]), page(1, all.slice(2))], all))
        .message,
    ).toContain('not in the order');
  });

  it("when keyset pages from the first item's lastupdated hold it, repeat each boundary item and cover the list, then they are complete", () => {
    const pages = [
      page(0, all.slice(0, 3), all[0]!.lastupdated),
      page(1, all.slice(2, 5), all[2]!.lastupdated),
      page(2, all.slice(4), all[4]!.lastupdated),
    ];
    expect(() => assertKeysetPagingIsComplete(pages, all, { first: all[0]! })).not.toThrow();
  });

  it('when keyset paging misses the first item, a boundary item or an item, then the requirement of what broke fails', () => {
    const late = [page(0, all.slice(1, 3), all[0]!.lastupdated), page(1, all.slice(2, 5), all[2]!.lastupdated)];
    expect(failureOf(() => assertKeysetPagingIsComplete(late, all, { first: all[0]! })).requirements).toEqual([
      'PAGE-004',
      'FILTER-001',
    ]);
    const exclusive = [page(0, all.slice(0, 3), all[0]!.lastupdated), page(1, all.slice(3, 5), all[2]!.lastupdated)];
    expect(failureOf(() => assertKeysetPagingIsComplete(exclusive, all, { first: all[0]! })).requirements).toEqual([
      'PAGE-004',
      'FILTER-001',
    ]);
    const short = [page(0, all.slice(0, 3), all[0]!.lastupdated), page(1, all.slice(2, 4), all[2]!.lastupdated)];
    expect(failureOf(() => assertKeysetPagingIsComplete(short, all, { first: all[0]! })).requirements).toEqual([
      'PAGE-001',
      'PAGE-003',
    ]);
  });

  it("when other items (not the suite's) are on the pages, then they are ignored", () => {
    expect(() =>
      assertPagesAreDisjointAndComplete(
        [page(0, [item(9), ...all.slice(0, 2)]), page(1, [item(9), ...all.slice(2)])],
        all,
      ),
    ).not.toThrow();
  });
});
