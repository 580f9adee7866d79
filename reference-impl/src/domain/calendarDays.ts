// Days of the (proleptic Gregorian) calendar as whole numbers, day 0 being 1970-01-01: the
// arithmetic of calendar patterns (DEC-ITEM-024) without Date objects or time zones.

export interface DayParts {
  year: number;
  /** 1–12 */
  month: number;
  /** 1–31 */
  day: number;
}

const DAY_PREFIX = /^(\d{4})-(\d{2})-(\d{2})/;

/** The day a calendar value (`YYYY-MM-DD`, optionally followed by a time) names; undefined when it names none. */
export function parseDayNumber(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = DAY_PREFIX.exec(value);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return dayNumberOf(year, month, day);
}

/** Days from 1970-01-01 to the given day (negative before it). */
export function dayNumberOf(year: number, month: number, day: number): number {
  // Howard Hinnant's days_from_civil: exact for every Gregorian year, no Date.UTC 0–99 quirk.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** The inverse of dayNumberOf. */
export function partsOf(dayNumber: number): DayParts {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** `YYYY-MM-DD` of a day. */
export function formatDayNumber(dayNumber: number): string {
  const { year, month, day } = partsOf(dayNumber);
  return `${String(year).padStart(4, '0')}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayOf(dayNumber: number): number {
  return (((dayNumber + 4) % 7) + 7) % 7;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The last day the calendar's four-digit years reach. */
export const LAST_DAY = dayNumberOf(9999, 12, 31);
