import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { ALL_STATUSES } from '../../support/itemTypes.ts';
import { catalogue } from '../../support/sharedItems.ts';
import { listItems } from '../../support/lists.ts';
import { writerToken } from '../../support/organisations.ts';

export default defineCheck({
  id: 'filters.trcid',
  title:
    'trcid=<x> returns exactly the item with that trcid (approved for the consumer token, any status for the full token), and nothing for a trcid no item has',
  requirements: ['FILTER-004'],
  tags: ['filters'],
  needs: ['write', 'full', 'consumer'],
  writes: "the run's shared catalogue (nine event groups, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const approved = cat.entries.find((e) => e.status === WORKFLOW_STATUS.approved)!;
    // An item only the full token sees: archived where the target can archive through the API.
    const hidden =
      cat.entries.find((e) => e.status === WORKFLOW_STATUS.archived) ??
      cat.entries.find((e) => e.status === WORKFLOW_STATUS.readyforvalidation)!;
    const cases = [
      { token: 'consumer' as const, query: { trcid: approved.trcid }, expect: [approved.trcid] },
      { token: writerToken(ctx), query: { trcid: hidden.trcid, wfstatus: ALL_STATUSES }, expect: [hidden.trcid] },
      { token: writerToken(ctx), query: { trcid: `${ctx.runId}-no-such-item`, wfstatus: ALL_STATUSES }, expect: [] },
    ];
    for (const c of cases) {
      const { items, res } = await listItems(ctx, cat.collection, c.query, { token: c.token });
      const got = items.map((i) => i.trcid);
      if (JSON.stringify(got) !== JSON.stringify(c.expect)) {
        throw new CheckFailure({
          message: `GET ${cat.collection}?trcid=${c.query.trcid} (${c.token} token) did not return exactly that item`,
          received: got,
          expected: c.expect,
          exchanges: [res.exchange],
        });
      }
    }
  },
});
