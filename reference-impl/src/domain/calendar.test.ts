import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RuleViolation } from './ruleViolation.ts';
import { MAX_SINGLE_DATES, computedDays, expandCalendar, normaliseCalendarForWrite } from './calendar.ts';

function caught(fn: () => unknown): RuleViolation {
  try {
    fn();
  } catch (error) {
    if (error instanceof RuleViolation) return error;
    throw error;
  }
  throw new Error('expected a RuleViolation');
}

const when = [{ timestart: '20:00', timeend: '22:00' }];
const fridaysAndSaturdays = {
  startdate: '2027-08-01',
  enddate: '2027-08-15',
  recurrencyType: 'weekly',
  opens: [
    { day: 6, whens: when },
    { day: 7, whens: when },
  ],
};
const flags = { cancelled: false, soldout: false, excludeholidays: false };

describe('calendarType normalisation', () => {
  it('when calendarType is sent in any letter case, then it is stored upper case [ITEM-020] [DEC-ITEM-011] [DEC-ITEM-025]', () => {
    expect(normaliseCalendarForWrite({ calendarType: 'singleDates', singleDates: [] }).calendarType).toBe(
      'SINGLEDATES',
    );
    expect(normaliseCalendarForWrite({ calendarType: 'openingtimes' }).calendarType).toBe('OPENINGTIMES');
    expect(normaliseCalendarForWrite({ calendarType: 'AlwaysOpen' }).calendarType).toBe('ALWAYSOPEN');
  });

  it("when calendarType is absent, then it is derived in the model's order: alwaysopen, onrequest, dates, patterns [DEC-ITEM-011]", () => {
    const dates = { singleDates: [{ date: '2027-03-01' }] };
    const pattern = { patternDates: [{ startdate: '2027-01-01', enddate: '2027-01-02' }] };
    const derived = (calendar: object) => normaliseCalendarForWrite(calendar).calendarType;
    expect(derived({ alwaysopen: true, onrequest: true, ...dates })).toBe('ALWAYSOPEN');
    expect(derived({ alwaysopen: false, onrequest: true, ...dates })).toBe('ONREQUEST');
    expect(derived({ ...pattern, ...dates })).toBe('SINGLEDATES');
    expect(derived(pattern)).toBe('PATTERNDATES');
    expect(derived({ patternDates: [{ recurrencyType: 'weekly', opens: [{ day: 2 }] }] })).toBe('OPENINGTIMES');
    expect(derived({ singleDates: [] })).toBe('NONE');
    expect(derived({})).toBe('NONE');
  });

  it('when calendarType is unknown, or our former ALWAYS, then it is a 400 naming it [DEC-ITEM-011]', () => {
    for (const value of ['WEEKLY', 'ALWAYS']) {
      const error = caught(() => normaliseCalendarForWrite({ calendarType: value }));
      expect(error.kind).toBe('invalid');
      expect(error.details).toEqual([
        { pointer: '/calendar/calendarType', message: expect.stringContaining(`"${value}"`) },
      ]);
    }
  });

  it('when an old stored calendar is read, then its type is normalised too [ITEM-020]', () => {
    expect(
      expandCalendar({ calendarType: 'singledates', singleDates: [{ date: '2027-01-01T00:00:00' }] }).calendarType,
    ).toBe('SINGLEDATES');
    expect(expandCalendar({ singleDates: [{ date: '2027-01-01T00:00:00' }] }).calendarType).toBe('SINGLEDATES');
  });
});

describe('calendars on write', () => {
  it('when any calendar date names a day that does not exist, then it is a 400 naming each [DEC-ITEM-023]', () => {
    const error = caught(() =>
      normaliseCalendarForWrite({
        singleDates: [{ date: '2026-02-30T10:00:00' }, { date: '2026-02-28T10:00:00' }],
        patternDates: [{ startdate: '2027-04-31', enddate: '2027-05-01' }],
        closeds: [{ date: '2027-02-29' }],
        soldouts: [{ date: '2028-02-29' }],
      }),
    );
    expect(error.details?.map((d) => d.pointer)).toEqual([
      '/calendar/patternDates/0/startdate',
      '/calendar/singleDates/0/date',
      '/calendar/closeds/0/date',
    ]);
    expect(error.message).toContain('2026-02-30T10:00:00');
  });

  it('when a pattern has the former form, then it is a 400 naming the replacement fields [DEC-ITEM-010]', () => {
    const error = caught(() =>
      normaliseCalendarForWrite({
        patternDates: [{ startdate: '2027-08-01', enddate: '2027-08-02', weekdays: ['FR'], when }],
      }),
    );
    expect(error.details?.map((d) => d.pointer)).toEqual([
      '/calendar/patternDates/0/weekdays',
      '/calendar/patternDates/0/when',
    ]);
  });

  it('when calendar dates are dates alone, then they are stored in the local timestamp form [ITEM-019] [DEC-ITEM-023]', () => {
    const stored = normaliseCalendarForWrite({
      singleDates: [{ date: '2027-03-01', when }, { date: '2027-03-02T10:00:00' }],
      patternDates: [{ startdate: '2027-04-01', enddate: '2027-04-02T00:00:00' }],
      closeds: [{ date: '2027-04-01' }],
    });
    expect(stored.singleDates).toEqual([{ date: '2027-03-01T00:00:00', when }, { date: '2027-03-02T10:00:00' }]);
    expect(stored.patternDates).toEqual([{ startdate: '2027-04-01T00:00:00', enddate: '2027-04-02T00:00:00' }]);
    expect(stored.closeds).toEqual([{ date: '2027-04-01T00:00:00' }]);
  });

  it('when a read calendar with computed days is written back, then the computed days are not stored, and a read gives the same calendar [DEC-ITEM-010] [DEC-ITEM-001]', () => {
    const calendar = {
      calendarType: 'PATTERNDATES',
      patternDates: [fridaysAndSaturdays],
      opens: [{ date: '2027-08-11', whens: when }],
      soldouts: [{ date: '2027-08-13' }],
      singleDates: [{ date: '2027-12-31T00:00:00' }],
    };
    const stored = normaliseCalendarForWrite(calendar);
    const read = expandCalendar(stored);
    const rewritten = normaliseCalendarForWrite(read);
    expect(rewritten.singleDates).toEqual([{ date: '2027-12-31T00:00:00' }]);
    expect(expandCalendar(rewritten)).toEqual(read);
    // The flags every response carries as false are not stored: the rewrite stores what was stored.
    expect(rewritten).toEqual(stored);
    expect(normaliseCalendarForWrite({ cancelled: true, soldout: false })).toEqual({
      calendarType: 'NONE',
      cancelled: true,
    });
  });

  it("when a single date differs from the pattern's day in its times, then it is kept", () => {
    const stored = normaliseCalendarForWrite({
      patternDates: [{ startdate: '2027-08-06', enddate: '2027-08-06', opens: [{ whens: when }] }],
      singleDates: [{ date: '2027-08-06T00:00:00', when: [{ timestart: '10:00' }] }],
    });
    expect(stored.singleDates).toEqual([{ date: '2027-08-06T00:00:00', when: [{ timestart: '10:00' }] }]);
  });

  it("when a single date is a pattern's day but holds an empty when or a field of its own, then it is kept as written", () => {
    const stored = normaliseCalendarForWrite({
      patternDates: [{ startdate: '2027-08-06', enddate: '2027-08-07' }],
      singleDates: [
        { date: '2027-08-06T00:00:00', when: [] },
        { date: '2027-08-07T00:00:00', note: 'mine' },
      ],
    });
    expect(stored.singleDates).toEqual([
      { date: '2027-08-06T00:00:00', when: [] },
      { date: '2027-08-07T00:00:00', note: 'mine' },
    ]);
    expect(expandCalendar(stored).singleDates).toEqual(stored.singleDates);
  });
});

describe('expandCalendar', () => {
  it('when a pattern chooses weekdays, then singleDates gets exactly those days with their times, sorted, and the flags are present [ITEM-020] [DEC-ITEM-010] [DEC-ITEM-101]', () => {
    const read = expandCalendar({
      calendarType: 'PATTERNDATES',
      patternDates: [fridaysAndSaturdays],
      singleDates: [{ date: '2027-08-03T00:00:00' }],
      soldout: true,
    });
    expect(read).toEqual({
      calendarType: 'PATTERNDATES',
      patternDates: [fridaysAndSaturdays],
      singleDates: [
        { date: '2027-08-03T00:00:00' },
        { date: '2027-08-06T00:00:00', when },
        { date: '2027-08-07T00:00:00', when },
        { date: '2027-08-13T00:00:00', when },
        { date: '2027-08-14T00:00:00', when },
      ],
      cancelled: false,
      soldout: true,
      excludeholidays: false,
    });
  });

  it('when the events list asks excludePatternDates, then singleDates holds only the stored dates [FILTER-005] [DEC-ITEM-010]', () => {
    const calendar = {
      calendarType: 'patterndates',
      patternDates: [{ startdate: '2027-08-01', enddate: '2027-08-31' }],
      opens: [{ date: '2027-09-05' }],
      singleDates: [{ date: '2027-09-01T00:00:00' }],
    };
    expect(expandCalendar(calendar, { excludePatternDates: true })).toEqual({
      ...calendar,
      calendarType: 'PATTERNDATES',
      ...flags,
    });
  });

  it('when a day is both a single date and a computed day, then it appears once, as the single date', () => {
    const read = expandCalendar({
      patternDates: [{ startdate: '2027-08-06', enddate: '2027-08-07', opens: [{ whens: when }] }],
      singleDates: [{ date: '2027-08-06T00:00:00', when: [{ timestart: '10:00' }] }],
    });
    expect(read.singleDates).toEqual([
      { date: '2027-08-06T00:00:00', when: [{ timestart: '10:00' }] },
      { date: '2027-08-07T00:00:00', when },
    ]);
  });

  it('when patterns would exceed the singleDates cap, then the earliest days are kept', () => {
    const patterns = Array.from({ length: 30 }, (_, i) => ({
      startdate: `${2030 + i}-01-01`,
      enddate: `${2030 + i}-12-31`,
    }));
    const read = expandCalendar({ patternDates: patterns, singleDates: [{ date: '2100-01-01T00:00:00' }] });
    const dates = (read.singleDates as { date: string }[]).map((d) => d.date);
    expect(dates).toHaveLength(MAX_SINGLE_DATES);
    expect(dates[0]).toBe('2030-01-01T00:00:00');
    expect(dates).toContain('2100-01-01T00:00:00');
  });

  it('when a stored pattern is unusable, then it adds nothing and singleDates stays as stored', () => {
    const stored = { singleDates: [{ date: '2027-08-02T00:00:00' }, { date: '2027-08-01T00:00:00' }] };
    expect(
      expandCalendar({ ...stored, patternDates: [{ startdate: '2027-02-30', enddate: '2027-03-02' }, 'x'] })
        .singleDates,
    ).toEqual(stored.singleDates);
  });
});

describe('exception dates [DEC-ITEM-102]', () => {
  const evenings = [
    { timestart: '18:00', timeend: '19:00' },
    { timestart: '20:00', timeend: '22:00' },
  ];
  const week = { startdate: '2027-08-02', enddate: '2027-08-06', opens: [{ whens: evenings }] }; // Monday to Friday

  it('when opens, closeds, soldouts and cancelleds are given, then the computed days show them', () => {
    const days = computedDays({
      patternDates: [week],
      opens: [
        { date: '2027-08-08', whens: [{ timestart: '14:00' }] },
        { date: '2027-08-02', whens: [{ timestart: '09:00' }] },
      ],
      closeds: [{ date: '2027-08-03' }, { date: '2027-08-04', whens: [evenings[0]] }, { date: '2027-08-20' }],
      soldouts: [{ date: '2027-08-05', whens: [evenings[1]] }],
      cancelleds: [{ date: '2027-08-06' }],
    });
    expect(days).toEqual([
      { date: '2027-08-02T00:00:00', when: evenings },
      { date: '2027-08-04T00:00:00', when: [evenings[1]] },
      { date: '2027-08-05T00:00:00', when: [evenings[0], { ...evenings[1], status: 'soldout' }] },
      {
        date: '2027-08-06T00:00:00',
        when: evenings.map((slot) => ({ ...slot, status: 'cancelled' })),
      },
      { date: '2027-08-08T00:00:00', when: [{ timestart: '14:00' }] },
    ]);
  });

  it('when closeds names every slot of a day, then the day goes; a day without slots is kept', () => {
    expect(computedDays({ patternDates: [week], closeds: [{ date: '2027-08-02', whens: evenings }] })).toHaveLength(4);
    expect(
      computedDays({
        patternDates: [{ startdate: '2027-08-02', enddate: '2027-08-02' }],
        closeds: [{ date: '2027-08-02', whens: evenings }],
      }),
    ).toEqual([{ date: '2027-08-02T00:00:00' }]);
  });

  it('when excludeholidays is set, then computed days on Dutch public holidays are left out, but opens days stay', () => {
    const calendar = {
      patternDates: [{ startdate: '2027-04-25', enddate: '2027-05-07' }],
      opens: [{ date: '2027-05-05' }],
    };
    const all = computedDays(calendar).map((d) => d.date.slice(0, 10));
    const workdays = computedDays({ ...calendar, excludeholidays: true }).map((d) => d.date.slice(0, 10));
    expect(all).toHaveLength(13);
    expect(all.filter((d) => !workdays.includes(d))).toEqual(['2027-04-27', '2027-05-06']);
    expect(workdays).toContain('2027-05-05');
  });
});

describe('write and read agree', () => {
  it('when a pattern is anything at all, then a read computes days from it only when a write accepts it', () => {
    const text = fc.oneof(fc.constantFrom('2027-08-01', '2027-08-09', '2027-02-30', '2027-8-1', ''), fc.anything());
    const pattern = fc.oneof(
      fc.anything(),
      fc.record(
        {
          startdate: text,
          enddate: text,
          occurrence: fc.oneof(fc.integer({ min: -1, max: 5 }), fc.anything()),
          recurrencyType: fc.constantFrom('daily', 'weekly', 'monthlySimple', 'monthlyComplex', 'yearly', 'hourly'),
          opens: fc.oneof(
            fc.array(
              fc.record(
                { day: fc.integer({ min: 0, max: 8 }), weeknumber: fc.integer({ min: 1, max: 5 }) },
                { requiredKeys: [] },
              ),
            ),
            fc.anything(),
          ),
          weekdays: fc.constant(['MO']),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(pattern, (p) => {
        const accepted = (() => {
          try {
            normaliseCalendarForWrite({ patternDates: [p] });
            return true;
          } catch {
            return false;
          }
        })();
        if ('singleDates' in expandCalendar({ patternDates: [p] })) expect(accepted).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
