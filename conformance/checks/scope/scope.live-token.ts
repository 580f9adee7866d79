import { PAGE_SIZE, WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { ALL_STATUSES } from '../../support/itemTypes.ts';
import { catalogue, unplacedStatuses } from '../../support/sharedItems.ts';
import { onlyThese } from '../../support/lists.ts';
import type { Item } from '../../support/itemTypes.ts';
import { assertContainsAll } from '../../support/listAssertions.ts';

const QUERIES: Record<string, string | boolean>[] = [
  { wfstatus: ALL_STATUSES },
  { wfstatus: 'archived,deleted' },
  { wfstatus: WORKFLOW_STATUS.archived },
  { wfstatus: WORKFLOW_STATUS.deleted },
  { wfstatus: 'rejected,readyforvalidation,draft' },
  { published: false },
  {},
];

export default defineCheck({
  id: 'scope.live-token',
  title:
    'A live (consumer) token sees approved items only: never archived, deleted or other items in lists, whatever wfstatus or published asks for, nor in detail reads',
  requirements: ['AUTH-005', 'SCOPE-001', 'WF-001', 'WF-005', 'DEC-LIST-006'],
  tags: ['scope', 'auth'],
  needs: ['write', 'full', 'consumer'],
  writes: "the run's shared catalogue (nine event groups in every status, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const approved = cat.entries.filter((e) => e.status === WORKFLOW_STATUS.approved);
    let refused: CheckFailure | undefined;
    for (const query of QUERIES) {
      const res = await ctx.http.get(cat.collection, {
        token: 'consumer',
        query: { lastupdated: cat.before, size: PAGE_SIZE.maximum, ...query },
        validate: 'defer',
      });
      if (res.status >= 400 && res.status < 500 && query.wfstatus !== undefined) {
        // Refusing to list statuses outside the token's scope also shows none of them; our decision drops them silently.
        res.assertConforms(['DEC-LIST-006']);
        refused ??= new CheckFailure({
          message: `GET ${cat.collection}?wfstatus=${String(query.wfstatus)} with a live token answered ${res.status}; statuses the token may not see are dropped silently`,
          received: res.status,
          expected: 200,
          pointer: 'status',
          requirements: ['DEC-LIST-006'],
          exchanges: [res.exchange],
        });
        continue;
      }
      if (res.status !== 200 || !Array.isArray(res.body))
        throw new CheckFailure({
          message: `GET ${cat.collection} with a live token answered ${res.status}`,
          received: res.status,
          expected: 200,
          requirements: ['SCOPE-001'],
          exchanges: [res.exchange],
        });
      res.assertConforms(['SCOPE-001']);
      const items = res.body as Item[];
      const hidden = items.find((i) => i.wfstatus !== WORKFLOW_STATUS.approved);
      if (hidden) {
        const removal = hidden.wfstatus === WORKFLOW_STATUS.archived || hidden.wfstatus === WORKFLOW_STATUS.deleted;
        throw new CheckFailure({
          message: `a live token listed a ${String(hidden.wfstatus)} item (query ${new URL(res.url).search})`,
          received: `${String(hidden.trcid)} (${String(hidden.wfstatus)})`,
          expected: 'approved items only',
          requirements: removal ? ['AUTH-005', 'SCOPE-001'] : ['SCOPE-001', 'WF-005'],
          exchanges: [res.exchange],
        });
      }
      if (query.wfstatus === ALL_STATUSES || Object.keys(query).length === 0) {
        assertContainsAll(
          onlyThese(items, cat.trcids),
          approved.map((e) => e.item),
          res,
          { requirements: ['WF-001'], message: 'a live token does not see an approved item' },
        );
      }
    }
    for (const entry of cat.entries.filter((e) => e.status !== WORKFLOW_STATUS.approved)) {
      const res = await ctx.http.get(entry.path, { token: 'consumer', validate: 'defer' });
      if (res.status === 200) {
        throw new CheckFailure({
          message: `a live token can read the ${entry.status} item ${entry.path}`,
          received: `200 ${String((res.body as Item).wfstatus)}`,
          expected: '404 (not visible)',
          requirements:
            entry.status === WORKFLOW_STATUS.archived || entry.status === WORKFLOW_STATUS.deleted
              ? ['AUTH-005', 'WF-005']
              : ['WF-005'],
          exchanges: [res.exchange],
        });
      }
      res.assertConforms(['WF-005']);
    }
    // A live token kept from archived or deleted items that were never there proves nothing.
    const unplaced = unplacedStatuses(cat, [WORKFLOW_STATUS.archived, WORKFLOW_STATUS.deleted]);
    if (unplaced.length > 0)
      ctx.unobservable(
        ['AUTH-005'],
        `the target moves no item into ${unplaced.join(' or ')} through the API (the interface leaves those moves open), so no such item was there to hide from a live token`,
      );
    else ctx.verified(['AUTH-005']);
    ctx.verified(['SCOPE-001', 'WF-001', 'WF-005']);
    if (refused) throw refused;
  },
});
