import { HttpError, type HttpErrorDetail } from '../http/HttpError.ts';

// calendarType normalisation (DEC-ITEM-011) and the days of calendar patterns (DEC-ITEM-010).

export const CALENDAR_TYPES = ['NONE', 'ALWAYS', 'ONREQUEST', 'SINGLEDATES', 'PATTERNDATES', 'OPENINGTIMES'] as const;
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

/**
 * The calendar to store: `calendarType` upper-cased, or derived when absent; date-only
 * `singleDates[].date` values in the local timestamp form; and no single date that a pattern
 * produces anyway (a GET-modify-PUT sends the computed days back, and storing them would freeze
 * them when the pattern changes later). Invalid patterns and types are one 400 naming each.
 */
export function normaliseCalendarForWrite(calendar: unknown): Loose {
  if (!isObject(calendar)) throw new HttpError(400, { message: `calendar must be an object (received: ${JSON.stringify(calendar)})`, details: [{ pointer: '/calendar', message: 'must be an object' }] });
  const details: HttpErrorDetail[] = [];
  const patterns = Array.isArray(calendar.patternDates) ? calendar.patternDates : [];
  patterns.forEach((pattern, index) => details.push(...patternProblems(pattern, `/calendar/patternDates/${index}`)));
  const calendarType = normaliseCalendarType(calendar, details);
  if (details.length > 0) {
    throw new HttpError(400, { message: details.length === 1 ? details[0]!.message : `calendar has ${details.length} problems: ${details.map((d) => d.message).join('; ')}`, details });
  }

  const result: Loose = { ...calendar, calendarType };
  if (Array.isArray(calendar.singleDates)) {
    const computed = new Set(patterns.flatMap((p) => patternDays(p as PatternDate)).map(dayKey));
    result.singleDates = calendar.singleDates
      .map((entry) => (isObject(entry) && typeof entry.date === 'string' && DATE_ONLY.test(entry.date) ? { ...entry, date: `${entry.date}T00:00:00` } : entry))
      .filter((entry) => !(isObject(entry) && typeof entry.date === 'string' && computed.has(dayKey(entry as SingleDate))));
  }
  return result;
}

/**
 * The calendar as read: `calendarType` normalised and, unless `excludePatternDates`, the days of
 * every pattern added to `singleDates` (at most 366 per pattern), sorted by date. A day already
 * given as a single date keeps that entry. At most MAX_SINGLE_DATES entries, the earliest kept.
 */
export function expandCalendar(calendar: Loose, options: { excludePatternDates?: boolean } = {}): Loose {
  const details: HttpErrorDetail[] = [];
  const calendarType = normaliseCalendarType(calendar, details);
  const result: Loose = { ...calendar, calendarType: details.length === 0 ? calendarType : calendar.calendarType };
  const patterns = (Array.isArray(calendar.patternDates) ? calendar.patternDates : []).filter((p) => patternProblems(p, '').length === 0) as PatternDate[];
  if (options.excludePatternDates === true || patterns.length === 0) return result;

  const explicit = (Array.isArray(calendar.singleDates) ? calendar.singleDates : []) as SingleDate[];
  const taken = new Set(explicit.filter((d) => typeof d?.date === 'string').map((d) => d.date.slice(0, 10)));
  const computed: SingleDate[] = [];
  for (const pattern of patterns) {
    for (const day of patternDays(pattern)) {
      const date = day.date.slice(0, 10);
      if (taken.has(date)) continue;
      taken.add(date);
      computed.push(day);
    }
  }
  computed.sort(byDate);
  const room = Math.max(0, MAX_SINGLE_DATES - explicit.length);
  result.singleDates = [...explicit, ...computed.slice(0, room)].sort(byDate);
  return result;
}

/** The days of one pattern, as single dates `YYYY-MM-DDT00:00:00` with the pattern's `when`. */
export function patternDays(pattern: PatternDate): SingleDate[] {
  const start = parseDay(pattern.startdate), end = parseDay(pattern.enddate);
  if (start === undefined || end === undefined) return [];
  const weekdays = Array.isArray(pattern.weekdays) && pattern.weekdays.length > 0 ? new Set(pattern.weekdays) : undefined;
  const days: SingleDate[] = [];
  for (let day = start; day <= end && days.length < MAX_DAYS_PER_PATTERN; day += DAY_MS) {
    const date = new Date(day);
    if (weekdays !== undefined && !weekdays.has(WEEKDAYS[date.getUTCDay()]!)) continue;
    const entry: SingleDate = { date: `${date.toISOString().slice(0, 10)}T00:00:00` };
    if (Array.isArray(pattern.when)) entry.when = structuredClone(pattern.when);
    days.push(entry);
  }
  return days;
}

function normaliseCalendarType(calendar: Loose, details: HttpErrorDetail[]): CalendarType {
  const value = calendar.calendarType;
  if (value === undefined || value === null) {
    if (Array.isArray(calendar.patternDates) && calendar.patternDates.length > 0) return 'PATTERNDATES';
    if (Array.isArray(calendar.singleDates) && calendar.singleDates.length > 0) return 'SINGLEDATES';
    return 'NONE';
  }
  const upper = typeof value === 'string' ? value.toUpperCase() : undefined;
  if (upper !== undefined && (CALENDAR_TYPES as readonly string[]).includes(upper)) return upper as CalendarType;
  details.push({ pointer: '/calendar/calendarType', message: `calendarType must be one of ${CALENDAR_TYPES.join(', ')} in any letter case (received: ${JSON.stringify(value)})` });
  return 'NONE';
}

function patternProblems(pattern: unknown, pointer: string): HttpErrorDetail[] {
  if (!isObject(pattern)) return [{ pointer, message: 'a calendar pattern must be an object with startdate and enddate' }];
  const problems: HttpErrorDetail[] = [];
  const start = parseDay(pattern.startdate), end = parseDay(pattern.enddate);
  if (start === undefined) problems.push({ pointer: `${pointer}/startdate`, message: `startdate must be a date YYYY-MM-DD (received: ${JSON.stringify(pattern.startdate)})` });
  if (end === undefined) problems.push({ pointer: `${pointer}/enddate`, message: `enddate must be a date YYYY-MM-DD (received: ${JSON.stringify(pattern.enddate)})` });
  if (start !== undefined && end !== undefined && end < start) {
    problems.push({ pointer: `${pointer}/enddate`, message: `enddate must not be before startdate (received: ${pattern.startdate as string} to ${pattern.enddate as string})` });
  }
  if (pattern.weekdays !== undefined) {
    const weekdays = Array.isArray(pattern.weekdays) ? pattern.weekdays : [pattern.weekdays];
    weekdays.forEach((day, index) => {
      if (!(WEEKDAYS as readonly unknown[]).includes(day)) problems.push({ pointer: `${pointer}/weekdays/${index}`, message: `weekdays must be among ${WEEKDAYS.join(', ')} (received: ${JSON.stringify(day)})` });
    });
  }
  return problems;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function parseDay(value: unknown): number | undefined {
  if (typeof value !== 'string' || !DATE_ONLY.test(value)) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value ? undefined : ms;
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
