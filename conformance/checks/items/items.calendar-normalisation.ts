import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem } from '../../support/items.ts';

// The operator's model's values (DEC-ITEM-011).
const TYPES = ['NONE', 'ALWAYSOPEN', 'ONREQUEST', 'OPENINGTIMES', 'PATTERNDATES', 'SINGLEDATES'];
const CASES = [
  {
    what: 'calendarType written in lower case',
    calendar: { calendarType: 'singledates', singleDates: [{ date: '2027-05-01' }] },
    expected: 'SINGLEDATES',
  },
  {
    what: 'no calendarType, single dates',
    calendar: { singleDates: [{ date: '2027-05-01T00:00:00', when: [{ timestart: '10:00', timeend: '17:00' }] }] },
    expected: 'SINGLEDATES',
  },
  {
    what: 'no calendarType, a pattern',
    calendar: {
      patternDates: [{ startdate: '2027-05-03', enddate: '2027-05-09', recurrencyType: 'weekly', opens: [{ day: 7 }] }],
    },
    expected: 'PATTERNDATES',
  },
  { what: 'no calendarType, no dates', calendar: {}, expected: 'NONE' },
];

export default defineCheck({
  id: 'items.calendar-normalisation',
  title:
    "The server normalises calendarType: one of the calendar types in upper case in every answer; written in lower case it comes back upper case, and when absent it is derived as the operator's model does (SINGLEDATES, PATTERNDATES or NONE here)",
  requirements: ['ITEM-020', 'ITEM-019', 'DEC-ITEM-011', 'DEC-ITEM-025', 'DEC-ITEM-010'],
  tags: ['items', 'calendar'],
  needs: ['write'],
  writes: 'four events with calendars (tagged with the run id)',
  run: async (ctx) => {
    let decisionFailure: CheckFailure | undefined;
    for (const c of CASES) {
      const event = await createItem(
        ctx,
        '/events',
        { calendar: c.calendar },
        // The pattern form is ours (the interface shows none): refusing it deviates from DEC-ITEM-010 only.
        { label: 'calendar', requirements: 'patternDates' in c.calendar ? ['DEC-ITEM-010'] : ['ITEM-019'] },
      );
      const type = (event.item.calendar as { calendarType?: unknown } | undefined)?.calendarType;
      if (type !== undefined && !TYPES.includes(String(type))) {
        throw new CheckFailure({
          message: `${event.path} (${c.what}): calendarType is not normalised`,
          received: type,
          expected: TYPES.join(' | '),
          pointer: '/calendar/calendarType',
          requirements: ['ITEM-020'],
          exchanges: [event.created.exchange],
        });
      }
      if (type !== c.expected) {
        decisionFailure ??= new CheckFailure({
          message: `${event.path} (${c.what}): calendarType is ${String(type)}`,
          received: type ?? '(absent)',
          expected: c.expected,
          pointer: '/calendar/calendarType',
          requirements: c.what.includes('lower case') ? ['DEC-ITEM-025'] : ['DEC-ITEM-011'],
          exchanges: [event.created.exchange],
        });
      }
    }
    ctx.verified(['ITEM-020', 'ITEM-019']);
    if (decisionFailure) throw decisionFailure;
  },
});
