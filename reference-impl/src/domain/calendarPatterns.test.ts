import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_DAYS_PER_PATTERN, patternDays, patternProblems } from './calendarPatterns.ts';

const slot = [{ timestart: '10:00', timeend: '17:00' }];
const dates = (pattern: unknown) => patternDays(pattern).map((d) => d.date.slice(0, 10));
const DAY_MS = 86_400_000;
const addDays = (text: string, n: number) =>
  new Date(Date.parse(`${text}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
/** 1 = Sunday … 7 = Saturday, as the model numbers weekdays. */
const modelWeekday = (text: string) => new Date(`${text}T00:00:00Z`).getUTCDay() + 1;

describe('pattern days [DEC-ITEM-024]', () => {
  it('when a weekly pattern opens on Monday and Friday, then it has those days in its range, each with its own time slots', () => {
    const evening = [{ timestart: '20:00', timeend: '22:00' }];
    const days = patternDays({
      startdate: '2027-08-01T00:00:00',
      enddate: '2027-08-15T00:00:00',
      recurrencyType: 'weekly',
      opens: [
        { day: 2, whens: slot },
        { day: 6, whens: evening },
      ],
    });
    expect(days).toEqual([
      { date: '2027-08-02T00:00:00', when: slot },
      { date: '2027-08-06T00:00:00', when: evening },
      { date: '2027-08-09T00:00:00', when: slot },
      { date: '2027-08-13T00:00:00', when: evening },
    ]);
    expect(days[0]!.when).not.toBe(days[2]!.when);
  });

  it('when a day matches two opens entries, then it has the time slots of both', () => {
    const days = patternDays({
      startdate: '2027-08-02',
      enddate: '2027-08-02',
      opens: [{ whens: slot }, { day: 2, whens: [{ timestart: '20:00' }] }],
    });
    expect(days).toEqual([{ date: '2027-08-02T00:00:00', when: [...slot, { timestart: '20:00' }] }]);
  });

  it("when recurrence is 2, then every other period counts, from the startdate's", () => {
    // 2027-08-04 is a Wednesday: its week (from Monday 2 August) counts, the next does not.
    expect(
      dates({
        startdate: '2027-08-04',
        enddate: '2027-08-31',
        recurrencyType: 'weekly',
        recurrence: 2,
        opens: [{ day: 2 }, { day: 5 }],
      }),
    ).toEqual(['2027-08-05', '2027-08-16', '2027-08-19', '2027-08-30']);
    expect(dates({ startdate: '2027-08-01', enddate: '2027-08-10', recurrencyType: 'daily', recurrence: 3 })).toEqual([
      '2027-08-01',
      '2027-08-04',
      '2027-08-07',
      '2027-08-10',
    ]);
  });

  it('when occurrence bounds a pattern, then it lasts that many of its periods, with or without an enddate', () => {
    const weekly = { startdate: '2027-08-02', recurrencyType: 'weekly', occurrence: 2, opens: [{ day: 2 }] };
    expect(dates(weekly)).toEqual(['2027-08-02', '2027-08-09']);
    expect(dates({ ...weekly, enddate: '2027-08-05' })).toEqual(['2027-08-02']);
    expect(dates({ ...weekly, recurrence: 2 })).toEqual(['2027-08-02', '2027-08-16']);
  });

  it('when a monthly pattern names a day of the month, then months without that day are skipped', () => {
    expect(
      dates({
        startdate: '2027-01-01',
        enddate: '2027-06-30',
        recurrencyType: 'monthlySimple',
        opens: [{ daynumber: 31 }],
      }),
    ).toEqual(['2027-01-31', '2027-03-31', '2027-05-31']);
  });

  it('when a monthlyComplex pattern names a week and a weekday, then it is the first … fourth or the last such weekday', () => {
    const months = { startdate: '2027-01-01', enddate: '2027-04-30', recurrencyType: 'monthlyComplex' };
    expect(dates({ ...months, opens: [{ weeknumber: 1, day: 2 }] })).toEqual([
      '2027-01-04',
      '2027-02-01',
      '2027-03-01',
      '2027-04-05',
    ]);
    expect(dates({ ...months, opens: [{ weeknumber: 5, day: 6 }] })).toEqual([
      '2027-01-29',
      '2027-02-26',
      '2027-03-26',
      '2027-04-30',
    ]);
  });

  it('when a yearly pattern names a month and a day, then it is that date each year', () => {
    expect(
      dates({
        startdate: '2027-01-01',
        occurrence: 3,
        recurrencyType: 'yearly',
        opens: [{ month: 12, daynumber: 25 }],
      }),
    ).toEqual(['2027-12-25', '2028-12-25', '2029-12-25']);
  });

  it("when a pattern has no opens, then it repeats on its startdate's day of the period", () => {
    const from = { startdate: '2027-01-13', enddate: '2027-12-31' }; // a Wednesday, the second of its month
    expect(dates({ ...from, recurrencyType: 'weekly' }).slice(0, 3)).toEqual([
      '2027-01-13',
      '2027-01-20',
      '2027-01-27',
    ]);
    expect(dates({ ...from, recurrencyType: 'monthlySimple' }).slice(0, 3)).toEqual([
      '2027-01-13',
      '2027-02-13',
      '2027-03-13',
    ]);
    expect(dates({ ...from, recurrencyType: 'monthlyComplex' }).slice(0, 3)).toEqual([
      '2027-01-13',
      '2027-02-10',
      '2027-03-10',
    ]);
    expect(dates({ startdate: '2027-01-13', occurrence: 2, recurrencyType: 'yearly' })).toEqual([
      '2027-01-13',
      '2028-01-13',
    ]);
    expect(dates({ startdate: '2027-01-13', enddate: '2027-01-15' })).toEqual([
      '2027-01-13',
      '2027-01-14',
      '2027-01-15',
    ]);
  });

  it('when recurrencyType is absent, then a pattern with opens is weekly', () => {
    expect(dates({ startdate: '2027-08-01', enddate: '2027-08-14', opens: [{ day: 1 }] })).toEqual([
      '2027-08-01',
      '2027-08-08',
    ]);
  });

  it('when a pattern is ongoing (no startdate, or neither enddate nor occurrence), then it has no days', () => {
    expect(patternDays({ recurrencyType: 'weekly', opens: [{ day: 2, whens: slot }] })).toEqual([]);
    expect(patternDays({ startdate: '2027-08-01', opens: [{ day: 2 }] })).toEqual([]);
    expect(patternDays({ enddate: '2027-08-01' })).toEqual([]);
  });

  it('when a pattern spans years, then it contributes at most 366 days [DEC-ITEM-010]', () => {
    const days = patternDays({ startdate: '2027-01-01', enddate: '2030-12-31' });
    expect(days).toHaveLength(MAX_DAYS_PER_PATTERN);
    expect(days.at(-1)!.date).toBe('2028-01-01T00:00:00');
  });

  it('when a pattern repeats rarely up to the last year, then it ends there', () => {
    expect(dates({ startdate: '9990-06-01', recurrencyType: 'yearly', recurrence: 4, occurrence: 10000 })).toEqual([
      '9990-06-01',
      '9994-06-01',
      '9998-06-01',
    ]);
  });

  it('when a weekly pattern chooses any weekdays over any range, then it has exactly the days of the range on those weekdays (up to the cap)', () => {
    const day = fc
      .integer({ min: Date.UTC(1990, 0, 1) / DAY_MS, max: Date.UTC(2040, 0, 1) / DAY_MS })
      .map((n) => new Date(n * DAY_MS).toISOString().slice(0, 10));
    fc.assert(
      fc.property(
        day,
        fc.integer({ min: 0, max: 800 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1 }),
        fc.integer({ min: 1, max: 3 }),
        (start, length, weekdays, recurrence) => {
          const end = addDays(start, length);
          const expected: string[] = [];
          const monday = addDays(start, -((modelWeekday(start) + 5) % 7));
          for (let i = 0; i <= length && expected.length < MAX_DAYS_PER_PATTERN; i++) {
            const text = addDays(start, i);
            const week = Math.floor((Date.parse(text) - Date.parse(monday)) / (7 * DAY_MS));
            if (week % recurrence === 0 && weekdays.includes(modelWeekday(text))) expected.push(text);
          }
          const opens = weekdays.map((d) => ({ day: d }));
          expect(dates({ startdate: start, enddate: end, recurrencyType: 'weekly', recurrence, opens })).toEqual(
            expected,
          );
        },
      ),
    );
  });
});

describe('pattern problems', () => {
  it('when a pattern has the former form, an end before its start, impossible days or selectors out of range, then each is named [DEC-ITEM-010] [DEC-ITEM-023] [DEC-ITEM-024]', () => {
    const problems = patternProblems(
      {
        startdate: '2027-02-30',
        enddate: '2027-02-10',
        weekdays: ['MO'],
        when: slot,
        recurrencyType: 'fortnightly',
        recurrence: 0,
        opens: [{ day: 8, weeknumber: 2.5, whens: slot }, 'x'],
      },
      '/p',
    );
    expect(problems.map((p) => p.pointer)).toEqual([
      '/p/startdate',
      '/p/weekdays',
      '/p/when',
      '/p/recurrencyType',
      '/p/recurrence',
      '/p/opens/0/weeknumber',
      '/p/opens/0/day',
      '/p/opens/1',
    ]);
    expect(problems[1]!.message).toContain('opens[].day');
    expect(patternProblems({ startdate: '2027-08-10', enddate: '2027-08-01' }, '/p')).toEqual([
      { pointer: '/p/enddate', message: expect.stringContaining('not be before startdate') },
    ]);
    expect(patternProblems({ recurrencyType: 'weekly', opens: [{ day: 7, whens: slot }] }, '/p')).toEqual([]);
  });
});
