import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  LAST_DAY,
  dayNumberOf,
  daysInMonth,
  formatDayNumber,
  parseDayNumber,
  partsOf,
  weekdayOf,
} from './calendarDays.ts';

const DAY_MS = 86_400_000;
/** Any day of the years 0000–9999 as a Date at 00:00 UTC. */
const anyDay = fc
  .integer({ min: Date.parse('0000-01-01T00:00:00Z') / DAY_MS, max: Date.parse('9999-12-31T00:00:00Z') / DAY_MS })
  .map((n) => new Date(n * DAY_MS));

describe('calendar days', () => {
  it('when a day of any year 0000–9999 is numbered, then the number, the parts, the text and the weekday agree with Date', () => {
    fc.assert(
      fc.property(anyDay, (date) => {
        const text = date.toISOString().slice(0, 10);
        const number = date.getTime() / DAY_MS;
        expect(parseDayNumber(text)).toBe(number);
        expect(parseDayNumber(`${text}T23:59:00`)).toBe(number);
        expect(dayNumberOf(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate())).toBe(number);
        expect(partsOf(number)).toEqual({
          year: date.getUTCFullYear(),
          month: date.getUTCMonth() + 1,
          day: date.getUTCDate(),
        });
        expect(formatDayNumber(number)).toBe(text);
        expect(weekdayOf(number)).toBe(date.getUTCDay());
      }),
      { numRuns: 2000 },
    );
    expect(formatDayNumber(LAST_DAY)).toBe('9999-12-31');
  });

  it('when a text names no day of the calendar, then it has no number [DEC-ITEM-023]', () => {
    for (const text of [
      '2026-02-30T10:00:00',
      '2027-02-29',
      '1900-02-29',
      '2027-04-31',
      '2027-13-01',
      '2027-00-10',
      '2027-8-1',
      '',
    ])
      expect(parseDayNumber(text), text).toBeUndefined();
    for (const text of ['2028-02-29', '2000-02-29', '0000-02-29', '2027-12-31T00:00:00'])
      expect(parseDayNumber(text), text).toBeTypeOf('number');
    expect(parseDayNumber(20270101)).toBeUndefined();
    expect([daysInMonth(2027, 2), daysInMonth(2028, 2), daysInMonth(2100, 2), daysInMonth(2027, 4)]).toEqual([
      28, 29, 28, 30,
    ]);
  });
});
