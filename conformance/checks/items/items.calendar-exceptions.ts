import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem } from '../../support/items.ts';

// The operator's model's calendar beyond the interface's fields, as decided: a weekly pattern on
// Monday and Friday evenings for two weeks, with an extra opening on Sunday 5 September, a
// closure on Monday 13 September and the evening of Friday 10 September sold out.

const slot = { timestart: '20:00', timeend: '22:00' };
const CALENDAR = {
  patternDates: [
    {
      startdate: '2027-09-06',
      enddate: '2027-09-19',
      recurrencyType: 'weekly',
      opens: [
        { day: 2, whens: [slot] },
        { day: 6, whens: [slot] },
      ],
    },
  ],
  opens: [{ date: '2027-09-05', whens: [{ timestart: '14:00' }] }],
  closeds: [{ date: '2027-09-13' }],
  soldouts: [{ date: '2027-09-10', whens: [slot] }],
};
const EXPECTED = [
  { date: '2027-09-05', when: [{ timestart: '14:00' }] },
  { date: '2027-09-06', when: [slot] },
  { date: '2027-09-10', when: [{ ...slot, status: 'soldout' }] },
  { date: '2027-09-17', when: [slot] },
];

type Day = { date?: unknown; when?: { timestart?: unknown; timeend?: unknown; status?: unknown }[] };

export default defineCheck({
  id: 'items.calendar-exceptions',
  title:
    "As decided, a calendar in the operator's model's shape computes its days: weekly opens by weekday (2 = Monday, 6 = Friday), an extra opening, a closure and a sold-out slot; the response carries the cancelled, soldout and excludeholidays flags",
  requirements: ['DEC-ITEM-024', 'DEC-ITEM-101', 'DEC-ITEM-102'],
  tags: ['items', 'calendar', 'decision'],
  needs: ['write'],
  writes: 'one event with a calendar pattern and exception dates (tagged with the run id)',
  run: async (ctx) => {
    const event = await createItem(
      ctx,
      '/events',
      { calendar: CALENDAR },
      { label: 'calendar-exceptions', requirements: ['DEC-ITEM-101'] },
    );
    const calendar = (event.item.calendar ?? {}) as Record<string, unknown>;
    const days = ((calendar.singleDates ?? []) as Day[]).map((d) => ({
      date: String(d.date).slice(0, 10),
      when: (d.when ?? []).map(({ timestart, timeend, status }) =>
        Object.fromEntries(Object.entries({ timestart, timeend, status }).filter(([, v]) => v !== undefined)),
      ),
    }));
    if (JSON.stringify(days) !== JSON.stringify(EXPECTED))
      throw new CheckFailure({
        message: `${event.path}: the computed days do not follow the pattern and its exception dates`,
        received: days,
        expected: EXPECTED,
        pointer: '/calendar/singleDates',
        requirements: ['DEC-ITEM-024', 'DEC-ITEM-102'],
        exchanges: [event.created.exchange],
      });
    const flags = ['cancelled', 'soldout', 'excludeholidays'].filter((f) => calendar[f] !== false);
    if (flags.length > 0)
      throw new CheckFailure({
        message: `${event.path}: the calendar does not carry ${flags.join(', ')} as false`,
        received: Object.fromEntries(flags.map((f) => [f, calendar[f] ?? '(absent)'])),
        expected: { cancelled: false, soldout: false, excludeholidays: false },
        pointer: '/calendar',
        requirements: ['DEC-ITEM-101'],
        exchanges: [event.created.exchange],
      });
  },
});
