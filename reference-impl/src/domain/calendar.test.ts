import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RuleViolation } from './ruleViolation.ts';
import {
  MAX_DAYS_PER_PATTERN,
  MAX_SINGLE_DATES,
  WEEKDAYS,
  expandCalendar,
  normaliseCalendarForWrite,
  patternDays,
} from './calendar.ts';

function caught(fn: () => unknown): RuleViolation {
  try {
    fn();
  } catch (error) {
    if (error instanceof RuleViolation) return error;
    throw error;
  }
  throw new Error('expected an RuleViolation');
}

const when = [{ timestart: '20:00', timeend: '22:00' }];

describe('calendarType normalisation', () => {
  it('when calendarType is sent in any letter case, then it is stored upper case [ITEM-020] [DEC-ITEM-011]', () => {
    expect(normaliseCalendarForWrite({ calendarType: 'singleDates', singleDates: [] }).calendarType).toBe(
      'SINGLEDATES',
    );
    expect(normaliseCalendarForWrite({ calendarType: 'openingtimes' }).calendarType).toBe('OPENINGTIMES');
    expect(normaliseCalendarForWrite({ calendarType: 'ALWAYS' }).calendarType).toBe('ALWAYS');
  });

  it('when calendarType is absent, then it is derived from patterns, then dates, else NONE [DEC-ITEM-011]', () => {
    expect(
      normaliseCalendarForWrite({
        patternDates: [{ startdate: '2027-01-01', enddate: '2027-01-02' }],
        singleDates: [{ date: '2027-03-01' }],
      }).calendarType,
    ).toBe('PATTERNDATES');
    expect(normaliseCalendarForWrite({ singleDates: [{ date: '2027-03-01' }] }).calendarType).toBe('SINGLEDATES');
    expect(normaliseCalendarForWrite({ singleDates: [] }).calendarType).toBe('NONE');
    expect(normaliseCalendarForWrite({}).calendarType).toBe('NONE');
  });

  it('when calendarType is unknown, then it is a 400 naming it [DEC-ITEM-011]', () => {
    const error = caught(() => normaliseCalendarForWrite({ calendarType: 'WEEKLY' }));
    expect(error.kind).toBe('invalid');
    expect(error.details).toEqual([
      { pointer: '/calendar/calendarType', message: expect.stringContaining('"WEEKLY"') },
    ]);
  });

  it('when an old stored calendar is read, then its type is normalised too [ITEM-020]', () => {
    expect(
      expandCalendar({ calendarType: 'singledates', singleDates: [{ date: '2027-01-01T00:00:00' }] }).calendarType,
    ).toBe('SINGLEDATES');
    expect(expandCalendar({ singleDates: [{ date: '2027-01-01T00:00:00' }] }).calendarType).toBe('SINGLEDATES');
  });
});

describe('patterns on write', () => {
  it('when a pattern ends before it starts, or has impossible dates or weekdays, then it is a 400 naming each [DEC-ITEM-010]', () => {
    const error = caught(() =>
      normaliseCalendarForWrite({
        patternDates: [
          { startdate: '2027-08-10', enddate: '2027-08-01' },
          { startdate: '2027-02-30', enddate: '2027-13-01', weekdays: ['MO', 'XX'] },
        ],
      }),
    );
    expect(error.details?.map((d) => d.pointer)).toEqual([
      '/calendar/patternDates/0/enddate',
      '/calendar/patternDates/1/startdate',
      '/calendar/patternDates/1/enddate',
      '/calendar/patternDates/1/weekdays/1',
    ]);
  });

  it('when single dates are dates alone, then they are stored in the local timestamp form [ITEM-019]', () => {
    const stored = normaliseCalendarForWrite({
      singleDates: [{ date: '2027-03-01', when }, { date: '2027-03-02T10:00:00' }],
    });
    expect(stored.singleDates).toEqual([{ date: '2027-03-01T00:00:00', when }, { date: '2027-03-02T10:00:00' }]);
  });

  it('when a read calendar with computed days is written back, then the computed days are not stored, and a read gives the same calendar [DEC-ITEM-010] [DEC-ITEM-001]', () => {
    const calendar = {
      calendarType: 'PATTERNDATES',
      patternDates: [{ startdate: '2027-08-01', enddate: '2027-08-15', weekdays: ['FR', 'SA'], when }],
      singleDates: [{ date: '2027-12-31T00:00:00' }],
    };
    const read = expandCalendar(normaliseCalendarForWrite(calendar));
    const rewritten = normaliseCalendarForWrite(read);
    expect(rewritten.singleDates).toEqual([{ date: '2027-12-31T00:00:00' }]);
    expect(expandCalendar(rewritten)).toEqual(read);
  });

  it("when a single date differs from the pattern's day in its times, then it is kept", () => {
    const stored = normaliseCalendarForWrite({
      patternDates: [{ startdate: '2027-08-06', enddate: '2027-08-06', when }],
      singleDates: [{ date: '2027-08-06T00:00:00', when: [{ timestart: '10:00' }] }],
    });
    expect(stored.singleDates).toEqual([{ date: '2027-08-06T00:00:00', when: [{ timestart: '10:00' }] }]);
  });
});

describe('expandCalendar', () => {
  it("when a pattern names weekdays, then singleDates gets exactly those days with the pattern's times, sorted [ITEM-020] [DEC-ITEM-010]", () => {
    const read = expandCalendar({
      calendarType: 'PATTERNDATES',
      patternDates: [{ startdate: '2027-08-01', enddate: '2027-08-15', weekdays: ['FR', 'SA'], when }],
      singleDates: [{ date: '2027-08-03T00:00:00' }],
    });
    expect(read.singleDates).toEqual([
      { date: '2027-08-03T00:00:00' },
      { date: '2027-08-06T00:00:00', when },
      { date: '2027-08-07T00:00:00', when },
      { date: '2027-08-13T00:00:00', when },
      { date: '2027-08-14T00:00:00', when },
    ]);
    expect(read.patternDates).toHaveLength(1);
  });

  it('when weekdays are absent, then every day from start to end (inclusive) counts [DEC-ITEM-010]', () => {
    expect(patternDays({ startdate: '2028-02-27', enddate: '2028-03-01' }).map((d) => d.date)).toEqual([
      '2028-02-27T00:00:00',
      '2028-02-28T00:00:00',
      '2028-02-29T00:00:00',
      '2028-03-01T00:00:00',
    ]);
    expect(patternDays({ startdate: '2028-02-27', enddate: '2028-02-27', weekdays: [] })).toHaveLength(1);
  });

  it('when a pattern spans years, then it contributes at most 366 days [DEC-ITEM-010]', () => {
    const days = patternDays({ startdate: '2027-01-01', enddate: '2030-12-31' });
    expect(days).toHaveLength(MAX_DAYS_PER_PATTERN);
    expect(days.at(-1)!.date).toBe('2028-01-01T00:00:00');
  });

  it('when the events list asks excludePatternDates, then singleDates holds only the stored dates [FILTER-005] [DEC-ITEM-010]', () => {
    const calendar = {
      calendarType: 'patterndates',
      patternDates: [{ startdate: '2027-08-01', enddate: '2027-08-31' }],
      singleDates: [{ date: '2027-09-01T00:00:00' }],
    };
    expect(expandCalendar(calendar, { excludePatternDates: true })).toEqual({
      ...calendar,
      calendarType: 'PATTERNDATES',
    });
  });

  it('when a day is both a single date and a pattern day, then it appears once, as the single date', () => {
    const read = expandCalendar({
      patternDates: [{ startdate: '2027-08-06', enddate: '2027-08-07', when }],
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

  it('when expanding any pattern, then each computed day lies in its range on one of its weekdays, with no duplicates [DEC-ITEM-010]', () => {
    const day = fc
      .integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) })
      .map((ms) => new Date(ms - (ms % 86_400_000)).toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 800 }), fc.subarray([...WEEKDAYS]), (start, length, weekdays) => {
        const end = new Date(Date.parse(`${start}T00:00:00Z`) + length * 86_400_000).toISOString().slice(0, 10);
        const days = patternDays({ startdate: start, enddate: end, weekdays });
        const dates = days.map((d) => d.date.slice(0, 10));
        expect(new Set(dates).size).toBe(dates.length);
        expect(dates.length).toBeLessThanOrEqual(MAX_DAYS_PER_PATTERN);
        for (const date of dates) {
          expect(date >= start && date <= end).toBe(true);
          if (weekdays.length > 0) expect(weekdays).toContain(WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]);
        }
        const all = Math.min(length + 1, MAX_DAYS_PER_PATTERN);
        if (weekdays.length === 0) expect(dates).toHaveLength(all);
      }),
    );
  });
});

describe('pattern days, exactly', () => {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  /** A YYYY-MM-DD text, most of them real days, some not (month 00–19, day 00–39). */
  const dateText = fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 39 }))
    .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
  const isRealDay = (text: string) => {
    const ms = Date.parse(`${text}T00:00:00Z`);
    return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
  };

  it('when a start or end is any YYYY-MM-DD text, then the pattern has that day exactly when the text names a real day', () => {
    for (const text of [
      '2027-02-29',
      '2028-02-29',
      '1900-02-29',
      '2000-02-29',
      '0000-02-29',
      '0100-02-29',
      '0099-12-31',
      '0000-01-01',
      '9999-12-31',
      '2027-04-31',
      '2027-00-10',
    ]) {
      expect(
        patternDays({ startdate: text, enddate: text }).map((d) => d.date),
        text,
      ).toEqual(isRealDay(text) ? [`${text}T00:00:00`] : []);
    }
    fc.assert(
      fc.property(dateText, (text) => {
        expect(patternDays({ startdate: text, enddate: text }).map((d) => d.date)).toEqual(
          isRealDay(text) ? [`${text}T00:00:00`] : [],
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('when a day is in any year 0000–9999, then only its own weekday selects it', () => {
    const day = fc
      .integer({
        min: Date.parse('0000-01-01T00:00:00Z') / 86_400_000,
        max: Date.parse('9999-12-31T00:00:00Z') / 86_400_000,
      })
      .map((n) => new Date(n * 86_400_000));
    fc.assert(
      fc.property(day, (date) => {
        const text = date.toISOString().slice(0, 10);
        const own = WEEKDAYS[date.getUTCDay()]!;
        expect(patternDays({ startdate: text, enddate: text, weekdays: [own] })).toHaveLength(1);
        expect(
          patternDays({ startdate: text, enddate: text, weekdays: WEEKDAYS.filter((w) => w !== own) }),
        ).toHaveLength(0);
      }),
      { numRuns: 1000 },
    );
  });

  it('when a pattern has times, then every day gets its own copy of them, equal to what structuredClone makes', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 3 }), (times) => {
        const days = patternDays({ startdate: '2027-08-01', enddate: '2027-08-03', when: times });
        expect(days).toHaveLength(3);
        for (const day of days) {
          expect(day.when).toStrictEqual(structuredClone(times));
          expect(day.when).not.toBe(times);
        }
        if (times.length > 0) expect(days[0]!.when).not.toBe(days[1]!.when);
      }),
    );
  });

  it('when the times hold a __proto__ key, other classes, shared or cyclic references, then the copies are still what structuredClone makes', () => {
    const withProtoKey = JSON.parse('[{"__proto__": {"timestart": "20:00"}}]') as unknown[];
    const [protoCopy] = patternDays({ startdate: '2027-08-01', enddate: '2027-08-01', when: withProtoKey });
    expect(Object.hasOwn(protoCopy!.when![0] as object, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(protoCopy!.when![0])).toBe(Object.prototype);

    const shared = { timestart: '20:00' };
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    const odd = [shared, shared, new Date(0), cyclic];
    const [copy] = patternDays({ startdate: '2027-08-01', enddate: '2027-08-01', when: odd });
    const when = copy!.when!;
    expect(when[0]).toEqual(shared);
    expect(when[0]).not.toBe(shared);
    expect(when[1]).toBe(when[0]);
    expect(when[2]).toBeInstanceOf(Date);
    expect((when[3] as unknown[])[0]).toBe(when[3]);
  });

  it('when a pattern is anything at all, then a read expands it exactly when a write accepts it', () => {
    const text = fc.oneof(fc.constantFrom('2027-08-01', '2027-08-09', '2027-02-30', '2027-8-1', ''), fc.anything());
    const pattern = fc.oneof(
      fc.anything(),
      fc.record(
        {
          startdate: text,
          enddate: text,
          weekdays: fc.option(fc.oneof(fc.subarray([...WEEKDAYS]), fc.constantFrom('MO', 'XX', ['MO', 'xx'], [null])), {
            nil: undefined,
          }),
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
        expect('singleDates' in expandCalendar({ patternDates: [p] })).toBe(accepted);
      }),
      { numRuns: 1000 },
    );
  });
});
