import fc from 'fast-check';
import { PAGE_SIZE, WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { filterCombination, toQuery } from '../../arbitraries/filterCombination.ts';
import type { FilterCombination } from '../../arbitraries/filterCombination.ts';
import { assertProperty } from '../../support/property.ts';
import { catalogue } from '../../support/sharedItems.ts';
import { listItems, onlyThese } from '../../support/lists.ts';
import { writerToken } from '../../support/organisations.ts';
import {
  assertContainsAll,
  assertEveryItemSatisfies,
  assertSortedBy,
  filterViolation,
  instant,
} from '../../support/listAssertions.ts';

export default defineCheck({
  id: 'properties.filter-combinations',
  title:
    "Property: any valid combination of wfstatus, published, trcid, lastupdated, sortField and sortOrder returns only items that satisfy every filter, all of the suite's items that do, in the requested order",
  requirements: [
    'FILTER-001',
    'FILTER-002',
    'FILTER-003',
    'FILTER-004',
    'SORT-001',
    'SORT-002',
    'SORT-003',
    'WF-004',
    'DEC-LIST-006',
    'DEC-LIST-007',
  ],
  tags: ['filters', 'sorting', 'property'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue (nine event groups in every status, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const combos = filterCombination({
      trcids: [...cat.trcids, `${ctx.runId}-no-such-item`],
      stamps: cat.entries.map((e) => String(e.item.lastupdated)),
    });
    await assertProperty(
      ctx,
      fc.asyncProperty(combos, async (combo) => {
        // Bounded below by the catalogue, so the answer is small and the suite's items are all in it.
        const bound =
          combo.lastupdated !== undefined && instant(combo.lastupdated) > instant(cat.before)
            ? combo.lastupdated
            : cat.before;
        const effective: FilterCombination = { ...combo, lastupdated: bound };
        const { items, res } = await listItems(
          ctx,
          cat.collection,
          { ...toQuery(effective), size: PAGE_SIZE.maximum },
          { token: writerToken(ctx) },
        );
        assertEveryItemSatisfies(items, effective, res);
        const expected = cat.entries
          .map((e) => e.item)
          .filter(
            (i) =>
              filterViolation(i, effective) === undefined &&
              (effective.wfstatus !== undefined || i.wfstatus !== WORKFLOW_STATUS.deleted),
          );
        const own = onlyThese(items, cat.trcids);
        const completeness =
          effective.published === false
            ? ['DEC-LIST-007']
            : effective.wfstatus === undefined
              ? ['DEC-LIST-006']
              : ['FILTER-001', 'FILTER-002', 'FILTER-003', 'FILTER-004'];
        assertContainsAll(own, expected, res, { requirements: completeness });
        assertSortedBy(own, effective.sortField ?? 'lastupdated', effective.sortOrder ?? 'DESC', res, {
          requirements:
            effective.sortField && effective.sortOrder ? ['SORT-001', 'SORT-003'] : ['SORT-002', 'SORT-003'],
        });
      }),
    );
  },
});
