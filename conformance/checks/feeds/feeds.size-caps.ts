import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { detailPath } from '../../support/itemTypes.ts';
import { feed, feedEvent, fieldsOf, findImported, partnerId, reread, runFeed } from '../../support/feeds.ts';

// FEED-004: size caps the entries a run pulls, and the others stay untouched: a new one is not
// imported (and can be later), a changed one keeps its item as it was. DEC-FEED-008: the first
// `size` entries in document order.

export default defineCheck({
  id: 'feeds.size-caps',
  title:
    'size caps the entries a run pulls: with three entries, size=2 imports two and leaves the third untouched (imported by a later run); a changed entry beyond size keeps its item as it was',
  requirements: ['FEED-004', 'DEC-FEED-008', 'DEC-FEED-011', 'DEC-FEED-002'],
  tags: ['feeds'],
  needs: ['feed'],
  writes: 'three events imported through the feed, two of them updated (partner ids tagged with the run id)',
  run: async (ctx) => {
    const { partner } = feed(ctx);
    const ids = ['a', 'b', 'c'].map((l) => partnerId(ctx, `size-${l}`));
    const [a, b, c] = ids as [string, string, string];
    partner.serve(ids.map((id) => feedEvent(id)));

    // size=2 of three: two imported, the third not.
    const capped = await runFeed(ctx, { size: 2 }, { requirements: ['FEED-004'] });
    const found = await findImported(ctx, capped, ids, ['FEED-004']);
    const evidence = [capped.res.exchange, found.res.exchange];
    if (found.items.size > 2 || capped.report.fetched > 2) {
      throw new CheckFailure({
        message: `a run with size=2 over three entries imported ${found.items.size} of them (fetched ${capped.report.fetched})`,
        received: { imported: [...found.items.keys()], fetched: capped.report.fetched },
        expected: 'at most 2 entries pulled and imported',
        requirements: ['FEED-004'],
        exchanges: evidence,
      });
    }
    if (found.items.size < 2) {
      throw new CheckFailure({
        message: `a run with size=2 over three new entries imported ${found.items.size}`,
        received: [...found.items.keys()],
        expected: 'two of them',
        requirements: ['FEED-004'],
        exchanges: evidence,
      });
    }
    const firstTwo = found.items.has(a) && found.items.has(b);

    // The third is untouched, not lost: a later run imports it.
    const rest = ids.find((id) => !found.items.has(id))!;
    const later = await runFeed(ctx, { size: 3 }, { requirements: ['FEED-004'] });
    const laterFound = await findImported(ctx, later, [rest], ['FEED-004']);
    if (!laterFound.items.has(rest)) {
      throw new CheckFailure({
        message: `the entry size=2 left out (${rest}) was not imported by the next run with size=3 (run: ${JSON.stringify(later.report.imported)}, errors ${JSON.stringify(later.report.errors.slice(0, 2))})`,
        received: 'no item',
        expected: `an item with externalId <feed name>:${rest}`,
        requirements: ['FEED-004'],
        exchanges: [later.res.exchange, laterFound.res.exchange],
      });
    }
    const itemA = found.items.get(a) ?? laterFound.items.get(a);
    const itemC = found.items.get(c) ?? laterFound.items.get(c);

    // Two entries change; size=1 takes one of them (the first, DEC-FEED-008): the other's item stays as it was.
    if (itemA && itemC) {
      const [{ item: aBefore }, { item: cBefore }] = [
        await reread(ctx, itemA, ['FEED-004']),
        await reread(ctx, itemC, ['FEED-004']),
      ];
      partner.serve([
        feedEvent(a, { title: `${a} gewijzigd` }),
        feedEvent(b),
        feedEvent(c, { title: `${c} gewijzigd` }),
      ]);
      const one = await runFeed(ctx, { size: 1 }, { requirements: ['FEED-004'] });
      const [{ item: aAfter, res: aRes }, { item: cAfter, res: cRes }] = [
        await reread(ctx, itemA, ['FEED-004']),
        await reread(ctx, itemC, ['FEED-004']),
      ];
      const changed = (before: typeof aBefore, after: typeof aAfter) =>
        after.lastupdated !== before.lastupdated || fieldsOf(after).title !== fieldsOf(before).title;
      if (changed(aBefore, aAfter) && changed(cBefore, cAfter)) {
        throw new CheckFailure({
          message: `a run with size=1 changed both ${detailPath('/events', String(itemA.id))} and ${detailPath('/events', String(itemC.id))}, whose entries changed`,
          received: { first: fieldsOf(aAfter).title, third: fieldsOf(cAfter).title },
          expected: 'one of them changed, the other as it was',
          requirements: ['FEED-004'],
          exchanges: [one.res.exchange, aRes.exchange, cRes.exchange],
        });
      }
      ctx.verified(['FEED-004']);
      if (fieldsOf(aAfter).title !== `${a} gewijzigd`) {
        throw new CheckFailure({
          message: 'a run with size=1 did not update the item of the first entry of the document',
          received: fieldsOf(aAfter).title,
          expected: `${a} gewijzigd`,
          requirements: ['DEC-FEED-008'],
          exchanges: [one.res.exchange, aRes.exchange],
        });
      }
    } else {
      ctx.verified(['FEED-004']);
    }
    if (!firstTwo) {
      throw new CheckFailure({
        message: 'a run with size=2 did not take the first two entries of the document',
        received: [...found.items.keys()],
        expected: [a, b],
        requirements: ['DEC-FEED-008'],
        exchanges: evidence,
      });
    }
    // The second run pulled all three: the first two were unchanged.
    const counted = later.report.imported;
    if (counted.created !== 1 || counted.unchanged !== 2) {
      throw new CheckFailure({
        message: `the run over two imported, unchanged entries and a new one counted ${JSON.stringify(counted)}`,
        received: counted,
        expected: { created: 1, updated: 0, unchanged: 2 },
        requirements: ['DEC-FEED-011'],
        exchanges: [later.res.exchange],
      });
    }
  },
});
