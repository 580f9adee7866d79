import { dayNumberOf, partsOf, weekdayOf } from './calendarDays.ts';

// The Dutch public holidays that `calendar.excludeholidays` leaves out of computed days
// (DEC-ITEM-102): the days of the Algemene termijnenwet plus Easter and Whit Sunday. Ten
// fixed rules, so written here rather than taken from a world-holiday data package.

/** Whether the day is a Dutch public holiday. */
export function isDutchPublicHoliday(dayNumber: number): boolean {
  const { year, month, day } = partsOf(dayNumber);
  if (month === 1 && day === 1) return true; // Nieuwjaarsdag
  if (month === 12 && (day === 25 || day === 26)) return true; // Kerstmis
  if (month === 5 && day === 5) return true; // Bevrijdingsdag
  if (month === 4 && (day === 26 || day === 27)) {
    // Koningsdag: 27 April, or the 26th when the 27th is a Sunday.
    const kingsDay = dayNumberOf(year, 4, 27);
    return dayNumber === (weekdayOf(kingsDay) === 0 ? kingsDay - 1 : kingsDay);
  }
  const easter = easterSunday(year);
  const offset = dayNumber - easter;
  // Easter Sunday and Monday, Ascension Day, Whit Sunday and Monday.
  return offset === 0 || offset === 1 || offset === 39 || offset === 49 || offset === 50;
}

/** Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, Meeus/Jones/Butcher). */
export function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dayNumberOf(year, month, day);
}
