import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem } from '../../support/items.ts';
import { listItems } from '../../support/lists.ts';

type Calendar = { singleDates?: { date?: string }[] };
const days = (item: Record<string, unknown> | undefined) =>
  ((item?.calendar as Calendar | undefined)?.singleDates ?? []).map((d) => String(d.date).slice(0, 10)).sort();

export default defineCheck({
  id: 'filters.exclude-pattern-dates',
  title:
    'The events list accepts excludePatternDates; with true, singleDates holds only the stored dates, not the days computed from patternDates',
  requirements: ['FILTER-005', 'DEC-ITEM-010'],
  tags: ['filters', 'calendar'],
  needs: ['write'],
  writes: 'one approved event with a calendar pattern (tagged with the run id)',
  run: async (ctx) => {
    const calendar = {
      singleDates: [{ date: '2027-08-14T00:00:00' }],
      // Mondays and Wednesdays, in the operator's model's pattern form (DEC-ITEM-010).
      patternDates: [
        { startdate: '2027-09-06', enddate: '2027-09-12', recurrencyType: 'weekly', opens: [{ day: 2 }, { day: 4 }] },
      ],
    };
    const event = await createItem(
      ctx,
      '/events',
      { wfstatus: WORKFLOW_STATUS.approved, calendar },
      // The pattern form is ours (the interface shows none): a target refusing it deviates from it.
      { label: 'pattern', requirements: ['DEC-ITEM-010'] },
    );
    for (const flag of [true, false]) {
      const { items } = await listItems(
        ctx,
        '/events',
        { trcid: event.trcid, excludePatternDates: flag },
        { token: event.token, requirements: ['FILTER-005'] },
      );
      if (items.length !== 1)
        throw new CheckFailure({
          message: `GET /events?trcid=${event.trcid}&excludePatternDates=${flag} did not return the event`,
          received: items.length,
          expected: 1,
          requirements: ['FILTER-005'],
        });
    }
    ctx.verified(['FILTER-005']);
    const computed = days(event.item);
    const expectedAll = ['2027-08-14', '2027-09-06', '2027-09-08'];
    if (JSON.stringify(computed) !== JSON.stringify(expectedAll)) {
      throw new CheckFailure({
        message: `${event.path}: singleDates does not hold the stored date plus the days of the pattern (Mondays and Wednesdays 6–12 September 2027)`,
        received: computed,
        expected: expectedAll,
        pointer: '/calendar/singleDates',
        exchanges: [event.created.exchange],
      });
    }
    const { items, res } = await listItems(
      ctx,
      '/events',
      { trcid: event.trcid, excludePatternDates: true },
      { token: event.token },
    );
    if (JSON.stringify(days(items[0])) !== JSON.stringify(['2027-08-14'])) {
      throw new CheckFailure({
        message: 'with excludePatternDates=true singleDates still holds computed days',
        received: days(items[0]),
        expected: ['2027-08-14'],
        pointer: '/0/calendar/singleDates',
        exchanges: [res.exchange],
      });
    }
  },
});
