import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { detailPath } from '../../support/itemTypes.ts';
import {
  differing,
  expectedFields,
  feed,
  feedEvent,
  fieldsOf,
  findImported,
  importedItem,
  partnerId,
  reread,
  runFeed,
} from '../../support/feeds.ts';
import type { EventVersion } from '../../support/feeds.ts';

// FEED-001: an item still waiting for an editor (readyforvalidation) takes every field of the
// partner's new version. DEC-FEED-011: the same version once more changes nothing (no new
// lastupdated) and is counted unchanged.

export default defineCheck({
  id: 'feeds.reimport-overwrites',
  title:
    'A feed update of an item in readyforvalidation overwrites all its fields (title, description, calendar, prices, location, files) on the same item; the same entry again leaves it unchanged (same lastupdated, counted unchanged)',
  requirements: ['FEED-001', 'DEC-FEED-011', 'DEC-FEED-002'],
  tags: ['feeds', 'workflow'],
  needs: ['feed'],
  writes: 'one event imported through the feed and updated twice (partner id tagged with the run id)',
  run: async (ctx) => {
    const { partner } = feed(ctx);
    const id = partnerId(ctx, 'overwrite');
    const v2: EventVersion = {
      title: `${id} nieuwe titel`,
      description: `${id} nieuwe beschrijving`,
      date: '2027-06-15',
      price: 25,
      city: 'Utrecht',
      file: 'tweede',
    };

    partner.serve([feedEvent(id)]);
    const first = await runFeed(ctx, { size: 1 }, { requirements: ['FEED-001'] });
    const before = importedItem(
      await findImported(ctx, first, [id], ['FEED-001']),
      first,
      id,
      ['FEED-001'],
      'the first version',
    );
    const path = detailPath('/events', String(before.id));
    if (before.wfstatus !== WORKFLOW_STATUS.readyforvalidation) {
      throw new CheckFailure({
        message: `the new feed item ${path} is ${String(before.wfstatus)}, so this check cannot see the rule for readyforvalidation items`,
        received: before.wfstatus,
        expected: 'readyforvalidation (WF-006)',
        requirements: ['FEED-001'],
        exchanges: [first.res.exchange],
      });
    }

    partner.serve([feedEvent(id, v2)]);
    const second = await runFeed(ctx, { size: 1 }, { requirements: ['FEED-001'] });
    const found = await findImported(ctx, second, [id], ['FEED-001']);
    const after = importedItem(found, second, id, ['FEED-001'], 'the second version');
    const evidence = [second.res.exchange, found.res.exchange];
    const copies = found.all.get(id) ?? [];
    if (copies.length > 1 || after.id !== before.id) {
      throw new CheckFailure({
        message: `the second version of the entry made another item instead of updating ${path} (matched by externalId)`,
        received: copies.map((c) => c.id),
        expected: [before.id],
        requirements: ['FEED-001'],
        exchanges: evidence,
      });
    }
    const fields = fieldsOf(after);
    const want = expectedFields(id, v2);
    const stale = differing(fields, want);
    if (stale.length > 0) {
      throw new CheckFailure({
        message: `${path} (readyforvalidation) kept ${stale.join(', ')} after a feed update; every field is overwritten`,
        received: Object.fromEntries(stale.map((k) => [k, fields[k as keyof typeof fields]])),
        expected: Object.fromEntries(stale.map((k) => [k, want[k as keyof typeof want]])),
        requirements: ['FEED-001'],
        exchanges: evidence,
      });
    }
    ctx.verified(['FEED-001']);

    // The same version again: nothing to write.
    const third = await runFeed(ctx, { size: 1 }, { requirements: ['DEC-FEED-011'] });
    const { item: again, res } = await reread(ctx, after, ['DEC-FEED-011']);
    const counted = third.report.imported;
    if (again.lastupdated !== after.lastupdated || counted.unchanged < 1 || counted.updated + counted.created > 0) {
      throw new CheckFailure({
        message: `an entry that changes nothing was written again: ${path} lastupdated ${String(after.lastupdated)} → ${String(again.lastupdated)}, the run counted ${JSON.stringify(counted)}`,
        received: { lastupdated: again.lastupdated, imported: counted },
        expected: { lastupdated: after.lastupdated, imported: { created: 0, updated: 0, unchanged: 1 } },
        requirements: ['DEC-FEED-011'],
        exchanges: [third.res.exchange, res.exchange],
      });
    }
  },
});
