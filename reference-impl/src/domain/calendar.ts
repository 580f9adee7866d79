import { RuleViolation, type RuleViolationDetail } from './ruleViolation.ts';
import { formatDay } from './timestamps.ts';

// calendarType normalisation (DEC-ITEM-011) and the days of calendar patterns (DEC-ITEM-010).

const CALENDAR_TYPES = ['NONE', 'ALWAYS', 'ONREQUEST', 'SINGLEDATES', 'PATTERNDATES', 'OPENINGTIMES'] as const;
export type CalendarType = (typeof CALENDAR_TYPES)[number];

export const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const; // index = Date#getUTCDay()

/** Days one pattern contributes at most (DEC-ITEM-010). */
export const MAX_DAYS_PER_PATTERN = 366;
/** Days `singleDates` holds at most, computed ones included; the earliest are kept (Calendar schema). */
export const MAX_SINGLE_DATES = 10_000;

type Loose = Record<string, unknown>;

export interface SingleDate {
  date: string;
  when?: unknown[];
  [field: string]: unknown;
}

export interface PatternDate {
  startdate: string;
  enddate: string;
  weekdays?: string[];
  when?: unknown[];
}

// @implements ITEM-019
/**
 * The calendar to store: `calendarType` upper-cased, or derived when absent; date-only
 * `singleDates[].date` values in the local timestamp form; and no single date that a pattern
 * produces anyway (a GET-modify-PUT sends the computed days back, and storing them would freeze
 * them when the pattern changes later). Invalid patterns and types are one 400 naming each.
 */
export function normaliseCalendarForWrite(calendar: unknown): Loose {
  if (!isObject(calendar))
    throw new RuleViolation(`calendar must be an object (received: ${JSON.stringify(calendar)})`, [
      { pointer: '/calendar', message: 'must be an object' },
    ]);
  const details: RuleViolationDetail[] = [];
  const patterns = Array.isArray(calendar.patternDates) ? calendar.patternDates : [];
  patterns.forEach((pattern, index) => details.push(...patternProblems(pattern, `/calendar/patternDates/${index}`)));
  const calendarType = normaliseCalendarType(calendar, details);
  if (details.length > 0) {
    throw new RuleViolation(
      details.length === 1
        ? details[0]!.message
        : `calendar has ${details.length} problems: ${details.map((d) => d.message).join('; ')}`,
      details,
    );
  }

  const result: Loose = { ...calendar, calendarType };
  if (Array.isArray(calendar.singleDates)) {
    const computed = new Set(patterns.flatMap((p) => patternDays(p as PatternDate)).map(dayKey));
    result.singleDates = calendar.singleDates
      .map((entry) =>
        isObject(entry) && typeof entry.date === 'string' && DATE_ONLY.test(entry.date)
          ? { ...entry, date: `${entry.date}T00:00:00` }
          : entry,
      )
      .filter(
        (entry) => !(isObject(entry) && typeof entry.date === 'string' && computed.has(dayKey(entry as SingleDate))),
      );
  }
  return result;
}

// @implements ITEM-020
/**
 * The calendar as read: `calendarType` normalised and, unless `excludePatternDates`, the days of
 * every pattern added to `singleDates` (at most 366 per pattern), sorted by date. A day already
 * given as a single date keeps that entry. At most MAX_SINGLE_DATES entries, the earliest kept.
 */
export function expandCalendar(calendar: Loose, options: { excludePatternDates?: boolean } = {}): Loose {
  const details: RuleViolationDetail[] = [];
  const calendarType = normaliseCalendarType(calendar, details);
  const result: Loose = { ...calendar, calendarType: details.length === 0 ? calendarType : calendar.calendarType };
  if (options.excludePatternDates === true || !Array.isArray(calendar.patternDates)) return result;

  const explicit = (Array.isArray(calendar.singleDates) ? calendar.singleDates : []) as SingleDate[];
  const taken = new Set<string>();
  for (const entry of explicit) if (typeof entry?.date === 'string') taken.add(entry.date.slice(0, 10));
  const computed: SingleDate[] = [];
  let anyValid = false; // only valid patterns count, and without one singleDates stays as stored
  for (const pattern of calendar.patternDates as unknown[]) {
    const range = validPatternRange(pattern);
    if (range === undefined) continue;
    anyValid = true;
    for (const day of daysOfPattern(pattern as PatternDate, range.start, range.end)) {
      const date = day.date.slice(0, 10);
      if (taken.has(date)) continue;
      taken.add(date);
      computed.push(day);
    }
  }
  if (!anyValid) return result;
  computed.sort(byDate);
  const room = Math.max(0, MAX_SINGLE_DATES - explicit.length);
  result.singleDates = [...explicit, ...computed.slice(0, room)].sort(byDate);
  return result;
}

/** The days of one pattern, as single dates `YYYY-MM-DDT00:00:00` with the pattern's `when`. */
export function patternDays(pattern: PatternDate): SingleDate[] {
  const start = parseDay(pattern.startdate),
    end = parseDay(pattern.enddate);
  if (start === undefined || end === undefined) return [];
  return daysOfPattern(pattern, start, end);
}

function daysOfPattern(pattern: PatternDate, start: number, end: number): SingleDate[] {
  const weekdays =
    Array.isArray(pattern.weekdays) && pattern.weekdays.length > 0 ? new Set(pattern.weekdays) : undefined;
  const copyWhen = Array.isArray(pattern.when) ? copierOf(pattern.when) : undefined;
  const days: SingleDate[] = [];
  for (let day = start; day <= end && days.length < MAX_DAYS_PER_PATTERN; day += DAY_MS) {
    if (weekdays !== undefined && !weekdays.has(WEEKDAYS[weekdayOf(day)]!)) continue;
    const entry: SingleDate = { date: `${formatDay(new Date(day))}T00:00:00` };
    if (copyWhen !== undefined) entry.when = copyWhen();
    days.push(entry);
  }
  return days;
}

/** The first and last day of a pattern in which patternProblems finds nothing wrong; else undefined. */
function validPatternRange(pattern: unknown): { start: number; end: number } | undefined {
  if (!isObject(pattern)) return undefined;
  const start = parseDay(pattern.startdate),
    end = parseDay(pattern.enddate);
  if (start === undefined || end === undefined || end < start) return undefined;
  const { weekdays } = pattern;
  if (weekdays !== undefined && !(Array.isArray(weekdays) ? weekdays.every(isWeekday) : isWeekday(weekdays)))
    return undefined;
  return { start, end };
}

function normaliseCalendarType(calendar: Loose, details: RuleViolationDetail[]): CalendarType {
  const value = calendar.calendarType;
  if (value === undefined || value === null) {
    if (Array.isArray(calendar.patternDates) && calendar.patternDates.length > 0) return 'PATTERNDATES';
    if (Array.isArray(calendar.singleDates) && calendar.singleDates.length > 0) return 'SINGLEDATES';
    return 'NONE';
  }
  const upper = typeof value === 'string' ? value.toUpperCase() : undefined;
  if (upper !== undefined && (CALENDAR_TYPES as readonly string[]).includes(upper)) return upper as CalendarType;
  details.push({
    pointer: '/calendar/calendarType',
    message: `calendarType must be one of ${CALENDAR_TYPES.join(', ')} in any letter case (received: ${JSON.stringify(value)})`,
  });
  return 'NONE';
}

function patternProblems(pattern: unknown, pointer: string): RuleViolationDetail[] {
  if (!isObject(pattern))
    return [{ pointer, message: 'a calendar pattern must be an object with startdate and enddate' }];
  const problems: RuleViolationDetail[] = [];
  const start = parseDay(pattern.startdate),
    end = parseDay(pattern.enddate);
  if (start === undefined)
    problems.push({
      pointer: `${pointer}/startdate`,
      message: `startdate must be a date YYYY-MM-DD (received: ${JSON.stringify(pattern.startdate)})`,
    });
  if (end === undefined)
    problems.push({
      pointer: `${pointer}/enddate`,
      message: `enddate must be a date YYYY-MM-DD (received: ${JSON.stringify(pattern.enddate)})`,
    });
  if (start !== undefined && end !== undefined && end < start) {
    problems.push({
      pointer: `${pointer}/enddate`,
      message: `enddate must not be before startdate (received: ${pattern.startdate as string} to ${pattern.enddate as string})`,
    });
  }
  if (pattern.weekdays !== undefined) {
    const weekdays = Array.isArray(pattern.weekdays) ? pattern.weekdays : [pattern.weekdays];
    weekdays.forEach((day, index) => {
      if (!isWeekday(day))
        problems.push({
          pointer: `${pointer}/weekdays/${index}`,
          message: `weekdays must be among ${WEEKDAYS.join(', ')} (received: ${JSON.stringify(day)})`,
        });
    });
  }
  return problems;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const WEEKDAY_CODES: ReadonlySet<unknown> = new Set(WEEKDAYS);

const isWeekday = (value: unknown): boolean => WEEKDAY_CODES.has(value);

/** Index into WEEKDAYS of the UTC day starting at `day`: 1970-01-01 was a Thursday. */
const weekdayOf = (day: number): number => ((Math.floor(day / DAY_MS) % 7) + 11) % 7;

/** A `YYYY-MM-DD` that names a day of the (proleptic Gregorian) calendar, as UTC millis; else undefined. */
function parseDay(value: unknown): number | undefined {
  if (typeof value !== 'string' || !DATE_ONLY.test(value)) return undefined;
  const year = Number(value.slice(0, 4)),
    month = Number(value.slice(5, 7)),
    day = Number(value.slice(8, 10));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  // Date.UTC reads the years 0–99 as 1900–1999.
  return year >= 100 ? Date.UTC(year, month - 1, day) : new Date(0).setUTCFullYear(year, month - 1, day);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/**
 * A function returning copies of `value` equal to structuredClone's. JSON data (all a stored
 * document holds) is copied directly, many times faster; anything else (other classes, shared
 * or cyclic references, holes, a `__proto__` key) is left to structuredClone.
 */
function copierOf<T>(value: T): () => T {
  return isJsonTree(value, new Set()) ? () => copyJsonTree(value) as T : () => structuredClone(value);
}

function isJsonTree(value: unknown, seen: Set<object>): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return true;
  if (typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  const keys = Object.keys(value);
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype || keys.length !== value.length) return false;
    for (let i = 0; i < value.length; i++) if (!Object.hasOwn(value, i) || !isJsonTree(value[i], seen)) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key of keys) if (key === '__proto__' || !isJsonTree((value as Loose)[key], seen)) return false;
  return true;
}

function copyJsonTree(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJsonTree);
  const copy: Loose = {};
  for (const key of Object.keys(value)) copy[key] = copyJsonTree((value as Loose)[key]);
  return copy;
}

function dayKey(entry: SingleDate): string {
  return `${entry.date.slice(0, 10)}|${JSON.stringify(entry.when ?? [])}`;
}

function byDate(a: SingleDate, b: SingleDate): number {
  return a.date < b.date ? -1 : a.date > b.date ? 1 : 0;
}

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
