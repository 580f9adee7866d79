import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HttpError } from '../http/HttpError.ts';
import { MAX_DAYS_PER_PATTERN, MAX_SINGLE_DATES, WEEKDAYS, expandCalendar, normaliseCalendarForWrite, patternDays } from './calendar.ts';

function caught(fn: () => unknown): HttpError {
  try { fn(); } catch (error) { if (error instanceof HttpError) return error; throw error; }
  throw new Error('expected an HttpError');
}

const when = [{ timestart: '20:00', timeend: '22:00' }];

describe('calendarType normalisation', () => {
  it('when calendarType is sent in any letter case, then it is stored upper case [ITEM-020] [DEC-ITEM-011]', () => {
    expect(normaliseCalendarForWrite({ calendarType: 'singleDates', singleDates: [] }).calendarType).toBe('SINGLEDATES');
    expect(normaliseCalendarForWrite({ calendarType: 'openingtimes' }).calendarType).toBe('OPENINGTIMES');
    expect(normaliseCalendarForWrite({ calendarType: 'ALWAYS' }).calendarType).toBe('ALWAYS');
  });

  it('when calendarType is absent, then it is derived from patterns, then dates, else NONE [DEC-ITEM-011]', () => {
    expect(normaliseCalendarForWrite({ patternDates: [{ startdate: '2027-01-01', enddate: '2027-01-02' }], singleDates: [{ date: '2027-03-01' }] }).calendarType).toBe('PATTERNDATES');
    expect(normaliseCalendarForWrite({ singleDates: [{ date: '2027-03-01' }] }).calendarType).toBe('SINGLEDATES');
    expect(normaliseCalendarForWrite({ singleDates: [] }).calendarType).toBe('NONE');
    expect(normaliseCalendarForWrite({}).calendarType).toBe('NONE');
  });

  it('when calendarType is unknown, then it is a 400 naming it [DEC-ITEM-011]', () => {
    const error = caught(() => normaliseCalendarForWrite({ calendarType: 'WEEKLY' }));
    expect(error.status).toBe(400);
    expect(error.details).toEqual([{ pointer: '/calendar/calendarType', message: expect.stringContaining('"WEEKLY"') }]);
  });

  it('when an old stored calendar is read, then its type is normalised too [ITEM-020]', () => {
    expect(expandCalendar({ calendarType: 'singledates', singleDates: [{ date: '2027-01-01T00:00:00' }] }).calendarType).toBe('SINGLEDATES');
    expect(expandCalendar({ singleDates: [{ date: '2027-01-01T00:00:00' }] }).calendarType).toBe('SINGLEDATES');
  });
});

describe('patterns on write', () => {
  it('when a pattern ends before it starts, or has impossible dates or weekdays, then it is a 400 naming each [DEC-ITEM-010]', () => {
    const error = caught(() => normaliseCalendarForWrite({
      patternDates: [
        { startdate: '2027-08-10', enddate: '2027-08-01' },
        { startdate: '2027-02-30', enddate: '2027-13-01', weekdays: ['MO', 'XX'] },
      ],
    }));
    expect(error.details?.map((d) => d.pointer)).toEqual([
      '/calendar/patternDates/0/enddate', '/calendar/patternDates/1/startdate', '/calendar/patternDates/1/enddate', '/calendar/patternDates/1/weekdays/1',
    ]);
  });

  it('when single dates are dates alone, then they are stored in the local timestamp form [ITEM-019]', () => {
    const stored = normaliseCalendarForWrite({ singleDates: [{ date: '2027-03-01', when }, { date: '2027-03-02T10:00:00' }] });
    expect(stored.singleDates).toEqual([{ date: '2027-03-01T00:00:00', when }, { date: '2027-03-02T10:00:00' }]);
  });

  it('when a read calendar with computed days is written back, then the computed days are not stored, and a read gives the same calendar [DEC-ITEM-010] [DEC-ITEM-001]', () => {
    const calendar = { calendarType: 'PATTERNDATES', patternDates: [{ startdate: '2027-08-01', enddate: '2027-08-15', weekdays: ['FR', 'SA'], when }], singleDates: [{ date: '2027-12-31T00:00:00' }] };
    const read = expandCalendar(normaliseCalendarForWrite(calendar));
    const rewritten = normaliseCalendarForWrite(read);
    expect(rewritten.singleDates).toEqual([{ date: '2027-12-31T00:00:00' }]);
    expect(expandCalendar(rewritten)).toEqual(read);
  });

  it('when a single date differs from the pattern\'s day in its times, then it is kept', () => {
    const stored = normaliseCalendarForWrite({ patternDates: [{ startdate: '2027-08-06', enddate: '2027-08-06', when }], singleDates: [{ date: '2027-08-06T00:00:00', when: [{ timestart: '10:00' }] }] });
    expect(stored.singleDates).toEqual([{ date: '2027-08-06T00:00:00', when: [{ timestart: '10:00' }] }]);
  });
});

describe('expandCalendar', () => {
  it('when a pattern names weekdays, then singleDates gets exactly those days with the pattern\'s times, sorted [ITEM-020] [DEC-ITEM-010]', () => {
    const read = expandCalendar({
      calendarType: 'PATTERNDATES',
      patternDates: [{ startdate: '2027-08-01', enddate: '2027-08-15', weekdays: ['FR', 'SA'], when }],
      singleDates: [{ date: '2027-08-03T00:00:00' }],
    });
    expect(read.singleDates).toEqual([
      { date: '2027-08-03T00:00:00' },
      { date: '2027-08-06T00:00:00', when }, { date: '2027-08-07T00:00:00', when },
      { date: '2027-08-13T00:00:00', when }, { date: '2027-08-14T00:00:00', when },
    ]);
    expect(read.patternDates).toHaveLength(1);
  });

  it('when weekdays are absent, then every day from start to end (inclusive) counts [DEC-ITEM-010]', () => {
    expect(patternDays({ startdate: '2028-02-27', enddate: '2028-03-01' }).map((d) => d.date)).toEqual([
      '2028-02-27T00:00:00', '2028-02-28T00:00:00', '2028-02-29T00:00:00', '2028-03-01T00:00:00',
    ]);
    expect(patternDays({ startdate: '2028-02-27', enddate: '2028-02-27', weekdays: [] })).toHaveLength(1);
  });

  it('when a pattern spans years, then it contributes at most 366 days [DEC-ITEM-010]', () => {
    const days = patternDays({ startdate: '2027-01-01', enddate: '2030-12-31' });
    expect(days).toHaveLength(MAX_DAYS_PER_PATTERN);
    expect(days.at(-1)!.date).toBe('2028-01-01T00:00:00');
  });

  it('when the events list asks excludePatternDates, then singleDates holds only the stored dates [FILTER-005] [DEC-ITEM-010]', () => {
    const calendar = { calendarType: 'patterndates', patternDates: [{ startdate: '2027-08-01', enddate: '2027-08-31' }], singleDates: [{ date: '2027-09-01T00:00:00' }] };
    expect(expandCalendar(calendar, { excludePatternDates: true })).toEqual({ ...calendar, calendarType: 'PATTERNDATES' });
  });

  it('when a day is both a single date and a pattern day, then it appears once, as the single date', () => {
    const read = expandCalendar({ patternDates: [{ startdate: '2027-08-06', enddate: '2027-08-07', when }], singleDates: [{ date: '2027-08-06T00:00:00', when: [{ timestart: '10:00' }] }] });
    expect(read.singleDates).toEqual([{ date: '2027-08-06T00:00:00', when: [{ timestart: '10:00' }] }, { date: '2027-08-07T00:00:00', when }]);
  });

  it('when patterns would exceed the singleDates cap, then the earliest days are kept', () => {
    const patterns = Array.from({ length: 30 }, (_, i) => ({ startdate: `${2030 + i}-01-01`, enddate: `${2030 + i}-12-31` }));
    const read = expandCalendar({ patternDates: patterns, singleDates: [{ date: '2100-01-01T00:00:00' }] });
    const dates = (read.singleDates as { date: string }[]).map((d) => d.date);
    expect(dates).toHaveLength(MAX_SINGLE_DATES);
    expect(dates[0]).toBe('2030-01-01T00:00:00');
    expect(dates).toContain('2100-01-01T00:00:00');
  });

  it('when expanding any pattern, then each computed day lies in its range on one of its weekdays, with no duplicates [DEC-ITEM-010]', () => {
    const day = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) }).map((ms) => new Date(ms - (ms % 86_400_000)).toISOString().slice(0, 10));
    fc.assert(fc.property(day, fc.integer({ min: 0, max: 800 }), fc.subarray([...WEEKDAYS]), (start, length, weekdays) => {
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
    }));
  });
});
