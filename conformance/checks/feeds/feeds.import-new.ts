import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem } from '../../support/items.ts';
import { detailPath } from '../../support/itemTypes.ts';
import { feed, feedEvent, feedName, findImported, importedItem, partnerId, runFeed } from '../../support/feeds.ts';

// A new partner entry (DEC-FEED-001: `{entries: [...]}`, TRCItem-shaped with the partner's id)
// becomes an item waiting for an editor (WF-006), with the composite externalId (ITEM-016). A second entry sends wfstatus approved: partners cannot publish
// (DEC-FEED-005), and if the target imports it, it must not be published either (WF-006).

export default defineCheck({
  id: 'feeds.import-new',
  title:
    "A new partner entry is imported as an item in readyforvalidation, not published (a consumer cannot read it), with externalId <feed name>:<partner id> (an item written with POST has none); a partner's wfstatus approved is ignored",
  requirements: ['WF-006', 'ITEM-016', 'DEC-FEED-001', 'DEC-FEED-003', 'DEC-FEED-005', 'DEC-FEED-002'],
  tags: ['feeds', 'workflow'],
  needs: ['feed', 'consumer'],
  writes: 'two events imported through the feed and one written with POST (tagged with the run id)',
  run: async (ctx) => {
    const { partner } = feed(ctx);
    const plain = partnerId(ctx, 'new');
    const claimsApproved = partnerId(ctx, 'new-approved');
    partner.serve([feedEvent(plain), feedEvent(claimsApproved, {}, { wfstatus: WORKFLOW_STATUS.approved })]);
    const run = await runFeed(ctx, { size: 2 }, { requirements: ['WF-006', 'ITEM-016'] });
    const found = await findImported(ctx, run, [plain, claimsApproved], ['WF-006', 'ITEM-016']);
    const item = importedItem(found, run, plain, ['WF-006', 'ITEM-016']);
    const path = detailPath('/events', String(item.id));
    const evidence = [run.res.exchange, found.res.exchange];

    // WF-006: readyforvalidation, not published, invisible to a live consumer.
    const notLive = (it: typeof item) => it.wfstatus === WORKFLOW_STATUS.readyforvalidation && it.published !== true;
    if (!notLive(item)) {
      throw new CheckFailure({
        message: `the new feed item ${path} is ${String(item.wfstatus)}${item.published === true ? ' and published' : ''}`,
        received: { wfstatus: item.wfstatus, published: item.published },
        expected: { wfstatus: WORKFLOW_STATUS.readyforvalidation, published: 'false or absent' },
        requirements: ['WF-006'],
        exchanges: evidence,
      });
    }
    const consumer = await ctx.http.get(path, { token: 'consumer', validate: 'defer' });
    if (consumer.status === 200) {
      throw new CheckFailure({
        message: `a consumer token reads the new feed item ${path}: it is live before an editor approved it`,
        received: consumer.status,
        expected: '404 (only approved items are live)',
        pointer: 'status',
        requirements: ['WF-006'],
        exchanges: [consumer.exchange],
      });
    }
    consumer.assertConforms(['WF-006']);
    const other = found.items.get(claimsApproved);
    if (other && !notLive(other)) {
      throw new CheckFailure({
        message: `the partner sent wfstatus approved and the new feed item ${detailPath('/events', String(other.id))} is ${String(other.wfstatus)}${other.published === true ? ', published' : ''}`,
        received: { wfstatus: other.wfstatus, published: other.published },
        expected: { wfstatus: WORKFLOW_STATUS.readyforvalidation, published: 'false or absent' },
        requirements: ['WF-006', 'DEC-FEED-005'],
        exchanges: evidence,
      });
    }

    // ITEM-016: a composite of the feed's name and the partner's id.
    const externalId = item.externalId;
    const name = ctx.config.feedName;
    const composite =
      typeof externalId === 'string' &&
      externalId.length > plain.length &&
      externalId.endsWith(plain) &&
      (name === undefined || externalId.includes(name));
    if (!composite) {
      throw new CheckFailure({
        message: `the feed item's externalId is not a composite of the feed name${name ? ` (${name})` : ''} and the partner id ${plain}`,
        received: externalId ?? '(absent)',
        expected: `${name ?? '<feed name>'}:${plain}`,
        pointer: '/externalId',
        requirements: ['ITEM-016'],
        exchanges: evidence,
      });
    }
    // …and on feed items only: an item written through the API has none.
    const written = await createItem(ctx, '/events', {}, { label: 'not-from-a-feed', requirements: ['ITEM-016'] });
    if (written.item.externalId !== undefined && written.item.externalId !== null) {
      throw new CheckFailure({
        message: `${written.path}, written with POST /events, has an externalId`,
        received: written.item.externalId,
        expected: '(absent: externalId is for feed items only)',
        pointer: '/externalId',
        requirements: ['ITEM-016'],
        exchanges: [written.created.exchange],
      });
    }
    ctx.verified(['WF-006', 'ITEM-016']);

    // Decisions: <name>:<id> exactly; the partner's wfstatus ignored (the entry still imports); the run report.
    const learnt = feedName(ctx, { externalId, id: plain });
    if (learnt === undefined || externalId !== `${learnt}:${plain}`) {
      throw new CheckFailure({
        message: `the feed item's externalId is not <feed name>:<partner id>`,
        received: externalId,
        expected: `${name ?? '<feed name>'}:${plain}`,
        pointer: '/externalId',
        requirements: ['DEC-FEED-003'],
        exchanges: evidence,
      });
    }
    if (name === undefined) ctx.note(`the feed's name, learnt from the first imported item: ${learnt}`);
    if (!other) {
      throw new CheckFailure({
        message: `the entry that sent wfstatus approved was not imported (errors: ${JSON.stringify(run.report.errors.slice(0, 3))}); the partner's wfstatus is to be ignored`,
        received: run.report.imported,
        expected: 'both entries imported, in readyforvalidation',
        requirements: ['DEC-FEED-005'],
        exchanges: evidence,
      });
    }
    if (run.async) {
      throw new CheckFailure({
        message: 'a run with size answered before it ended (202) instead of with its report',
        received: run.res.status,
        expected: '200 with the finished run',
        pointer: 'status',
        requirements: ['DEC-FEED-002'],
        exchanges: [run.res.exchange],
      });
    }
  },
});
