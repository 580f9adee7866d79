import { describe, expect, it } from 'vitest';
import { parseDayNumber } from './calendarDays.ts';
import { easterSunday, isDutchPublicHoliday } from './dutchHolidays.ts';

const day = (text: string) => parseDayNumber(text)!;

describe('Dutch public holidays', () => {
  it('when Easter is computed, then it falls on the published dates', () => {
    // Easter Sundays as the calendars of the churches publish them.
    const published = [
      '2024-03-31',
      '2025-04-20',
      '2026-04-05',
      '2027-03-28',
      '2028-04-16',
      '2038-04-25',
      '2285-03-22',
    ];
    for (const text of published) expect(easterSunday(Number(text.slice(0, 4))), text).toBe(day(text));
  });

  it('when the days of 2027 are checked, then exactly the ten holidays are holidays [DEC-ITEM-102]', () => {
    const holidays: number[] = [];
    for (let n = day('2027-01-01'); n <= day('2027-12-31'); n++) if (isDutchPublicHoliday(n)) holidays.push(n);
    expect(holidays).toEqual(
      [
        '2027-01-01', // Nieuwjaarsdag
        '2027-03-28', // Eerste Paasdag
        '2027-03-29', // Tweede Paasdag
        '2027-04-27', // Koningsdag
        '2027-05-05', // Bevrijdingsdag, and Hemelvaartsdag is 39 days after Easter: 6 May
        '2027-05-06',
        '2027-05-16', // Pinksteren
        '2027-05-17',
        '2027-12-25',
        '2027-12-26',
      ].map(day),
    );
  });

  it("when 27 April is a Sunday, then King's Day is the 26th", () => {
    expect(isDutchPublicHoliday(day('2025-04-26'))).toBe(true);
    expect(isDutchPublicHoliday(day('2025-04-27'))).toBe(false);
    expect(isDutchPublicHoliday(day('2026-04-27'))).toBe(true);
    expect(isDutchPublicHoliday(day('2026-04-26'))).toBe(false);
  });
});
