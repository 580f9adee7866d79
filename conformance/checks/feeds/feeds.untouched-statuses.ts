import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure, CheckUnobservable } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { canReachStatus, putItem, writableCopy } from '../../support/items.ts';
import { detailPath } from '../../support/itemTypes.ts';
import { writerToken } from '../../support/organisations.ts';
import {
  feed,
  feedEvent,
  fieldsOf,
  findImported,
  importedItem,
  partnerId,
  reread,
  runFeed,
} from '../../support/feeds.ts';

// DEC-FEED-006: an item an editor rejected is out of the feed's hands: a feed update leaves it
// as it is and notes it in the run's errors.

export default defineCheck({
  id: 'feeds.untouched-statuses',
  title:
    "A feed update of an item an editor rejected leaves it untouched (status and fields) and is noted in the run's errors",
  requirements: ['DEC-FEED-006', 'DEC-FEED-002'],
  tags: ['feeds', 'workflow'],
  needs: ['feed'],
  writes:
    'one event imported through the feed and rejected with a PUT by the writer token (partner id tagged with the run id)',
  run: async (ctx) => {
    if (!canReachStatus(ctx, WORKFLOW_STATUS.rejected))
      throw new CheckUnobservable(
        'the target moves no item into rejected through the API (the interface leaves it open)',
      );
    const { partner } = feed(ctx);
    const id = partnerId(ctx, WORKFLOW_STATUS.rejected);
    partner.serve([feedEvent(id)]);
    const first = await runFeed(ctx, { size: 1 });
    const item = importedItem(await findImported(ctx, first, [id]), first, id, ['DEC-FEED-006']);
    const path = detailPath('/events', String(item.id));
    const put = await putItem(
      ctx,
      { path, token: writerToken(ctx) },
      { ...writableCopy(item), wfstatus: WORKFLOW_STATUS.rejected },
    );
    assertStatus(put, [200, 201, 204], {
      message: `PUT ${path} with wfstatus rejected (an editor rejecting the feed item) answered ${put.status}`,
    });
    put.assertConforms();
    const { item: rejected } = await reread(ctx, item, ['DEC-FEED-006']);

    partner.serve([feedEvent(id, { title: `${id} na afwijzing gewijzigd` })]);
    const second = await runFeed(ctx, { size: 1 });
    const { item: after, res } = await reread(ctx, item, ['DEC-FEED-006']);
    const noted = second.report.errors.some((e) => e.externalId === item.externalId);
    if (
      after.wfstatus !== WORKFLOW_STATUS.rejected ||
      after.lastupdated !== rejected.lastupdated ||
      fieldsOf(after).title !== fieldsOf(rejected).title ||
      !noted
    ) {
      throw new CheckFailure({
        message: `a feed update of the rejected item ${path} ${after.wfstatus !== WORKFLOW_STATUS.rejected || after.lastupdated !== rejected.lastupdated ? 'changed it' : "was not noted in the run's errors"}`,
        received: {
          wfstatus: after.wfstatus,
          title: fieldsOf(after).title,
          lastupdated: after.lastupdated,
          errors: second.report.errors,
        },
        expected: {
          wfstatus: WORKFLOW_STATUS.rejected,
          title: fieldsOf(rejected).title,
          lastupdated: rejected.lastupdated,
          errors: `an entry for ${String(item.externalId)}`,
        },
        exchanges: [second.res.exchange, res.exchange],
      });
    }
  },
});
