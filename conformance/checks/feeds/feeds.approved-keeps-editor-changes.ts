import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { detailPath } from '../../support/itemTypes.ts';
import { putItem, writableCopy } from '../../support/items.ts';
import { writerToken } from '../../support/organisations.ts';
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

// FEED-002: once an editor approved a feed item, a feed update overwrites only its calendar and
// priceElements. The editor changes the title, the description and the files while approving it
// (a PUT, as an editor's tool would); the partner then changes those, the location, the calendar
// and the prices. Only the calendar and the prices may follow the partner.

export default defineCheck({
  id: 'feeds.approved-keeps-editor-changes',
  title:
    "A feed update of an approved item overwrites only calendar and priceElements: the editor's title, description and files and the other fields stay; an entry without calendar and priceElements removes them",
  requirements: ['FEED-002', 'DEC-FEED-007', 'DEC-FEED-002'],
  tags: ['feeds', 'workflow'],
  needs: ['feed'],
  writes:
    'one event imported through the feed, approved with a PUT by the writer token, then updated by the feed (partner id tagged with the run id)',
  run: async (ctx) => {
    const { partner } = feed(ctx);
    const id = partnerId(ctx, WORKFLOW_STATUS.approved);
    const editor = {
      title: `${id} titel van de redactie`,
      description: `${id} beschrijving van de redactie`,
      file: 'redactie',
    };
    const v2: EventVersion = {
      title: `${id} nieuwe titel`,
      description: `${id} nieuwe beschrijving`,
      date: '2027-06-15',
      price: 25,
      city: 'Utrecht',
      file: 'tweede',
    };

    partner.serve([feedEvent(id)]);
    const first = await runFeed(ctx, { size: 1 }, { requirements: ['FEED-002'] });
    const imported = importedItem(
      await findImported(ctx, first, [id], ['FEED-002']),
      first,
      id,
      ['FEED-002'],
      'the first version',
    );
    const path = detailPath('/events', String(imported.id));

    // The editor approves it, with changes of their own.
    const body = writableCopy(imported);
    body.wfstatus = WORKFLOW_STATUS.approved;
    body.trcItemDetails = [{ lang: 'nl', title: editor.title, shortdescription: editor.description }];
    body.files = [
      {
        hlink: `https://editor.conformance.example/${encodeURIComponent(id)}/${editor.file}.jpg`,
        filename: `${editor.file}.jpg`,
        filetype: 'jpg',
        mediatype: 'photo',
      },
    ];
    const put = await putItem(ctx, { path, token: writerToken(ctx) }, body);
    assertStatus(put, [200, 201, 204], {
      requirements: ['FEED-002'],
      message: `PUT ${path} (an editor approving the feed item) answered ${put.status}`,
    });
    put.assertConforms(['FEED-002']);
    const approved = (await reread(ctx, imported, ['FEED-002'])).item;
    if (approved.wfstatus !== WORKFLOW_STATUS.approved) {
      throw new CheckFailure({
        message: `after the editor's PUT with wfstatus approved, ${path} is ${String(approved.wfstatus)}`,
        received: approved.wfstatus,
        expected: WORKFLOW_STATUS.approved,
        requirements: ['FEED-002'],
        exchanges: [put.exchange],
      });
    }

    partner.serve([feedEvent(id, v2)]);
    const second = await runFeed(ctx, { size: 1 }, { requirements: ['FEED-002'] });
    const { item: after, res } = await reread(ctx, imported, ['FEED-002']);
    const fields = fieldsOf(after);
    const kept = { ...expectedFields(id), ...editor };
    const partnerWins = expectedFields(id, v2);
    const want = { ...kept, date: partnerWins.date, price: partnerWins.price };
    const wrong = differing(fields, want);
    const evidence = [second.res.exchange, res.exchange];
    if (after.wfstatus !== WORKFLOW_STATUS.approved || wrong.length > 0) {
      const overwritten = wrong.filter((k) => k !== 'date' && k !== 'price');
      throw new CheckFailure({
        message:
          overwritten.length > 0
            ? `a feed update of the approved item ${path} overwrote ${overwritten.join(', ')} (only calendar and priceElements may change)`
            : after.wfstatus !== WORKFLOW_STATUS.approved
              ? `a feed update took the approved item ${path} to ${String(after.wfstatus)}`
              : `a feed update of the approved item ${path} did not take the partner's ${wrong.map((k) => (k === 'date' ? 'calendar' : 'priceElements')).join(' and ')}`,
        received: {
          wfstatus: after.wfstatus,
          ...Object.fromEntries(wrong.map((k) => [k, fields[k as keyof typeof fields]])),
        },
        expected: {
          wfstatus: WORKFLOW_STATUS.approved,
          ...Object.fromEntries(wrong.map((k) => [k, want[k as keyof typeof want]])),
        },
        requirements: ['FEED-002'],
        exchanges: evidence,
      });
    }
    ctx.verified(['FEED-002']);

    // DEC-FEED-007: the partner's absence of a calendar and prices overwrites them too.
    const { calendar: _calendar, priceElements: _prices, ...bare } = feedEvent(id, v2);
    partner.serve([bare]);
    const third = await runFeed(ctx, { size: 1 }, { requirements: ['DEC-FEED-007'] });
    const { item: last, res: lastRes } = await reread(ctx, imported, ['DEC-FEED-007']);
    const left = fieldsOf(last);
    if (
      (left.date !== undefined && left.date !== '') ||
      left.price !== undefined ||
      fieldsOf(last).title !== editor.title
    ) {
      throw new CheckFailure({
        message: `an entry without calendar and priceElements left the approved item ${path} with ${left.date ? `calendar ${String(left.date)}` : ''}${left.date && left.price !== undefined ? ' and ' : ''}${left.price !== undefined ? `price ${String(left.price)}` : ''}`,
        received: { calendar: last.calendar, priceElements: last.priceElements },
        expected: 'no calendar dates and no priceElements',
        requirements: ['DEC-FEED-007'],
        exchanges: [third.res.exchange, lastRes.exchange],
      });
    }
  },
});
