import { parseDayNumber } from './calendarDays.ts';
import { copyJson, patternDays, patternProblems, type ComputedDay } from './calendarPatterns.ts';
import { isDutchPublicHoliday } from './dutchHolidays.ts';
import { RuleViolation, type RuleViolationDetail } from './ruleViolation.ts';
import { isObject } from '../../../spec/json.ts';

// The calendar in the operator's model's shape: calendarType normalisation (DEC-ITEM-011), the
// days computed from patterns and exception dates (DEC-ITEM-010, DEC-ITEM-102), and the
// flags responses always carry (DEC-ITEM-101).

export { MAX_DAYS_PER_PATTERN, patternDays } from './calendarPatterns.ts';

const CALENDAR_TYPES = ['NONE', 'ALWAYSOPEN', 'ONREQUEST', 'OPENINGTIMES', 'PATTERNDATES', 'SINGLEDATES'] as const;
export type CalendarType = (typeof CALENDAR_TYPES)[number];

/** Days `singleDates` holds at most, computed ones included; the earliest are kept (Calendar schema). */
export const MAX_SINGLE_DATES = 10_000;

/** The exception lists of the model (DEC-ITEM-102). */
export const EXCEPTION_LISTS = ['opens', 'closeds', 'soldouts', 'cancelleds'] as const;

/** Booleans the model's responses always carry (its CalendarResponseSchema). */
const RESPONSE_FLAGS = ['cancelled', 'soldout', 'excludeholidays'] as const;

type Loose = Record<string, unknown>;

export interface SingleDate {
  date: string;
  when?: unknown[];
  [field: string]: unknown;
}

// @implements ITEM-019
/**
 * The calendar to store: `calendarType` upper-cased, or derived when absent; date-only calendar
 * dates in the local timestamp form; the response flags only when true; and no single date that the patterns and exceptions produce
 * anyway (a GET-modify-PUT sends the computed days back, and storing them would freeze them when
 * a pattern changes later). Impossible days, invalid patterns and types are one 400 naming each.
 */
export function normaliseCalendarForWrite(calendar: unknown): Loose {
  if (!isObject(calendar))
    throw new RuleViolation(`calendar must be an object (received: ${JSON.stringify(calendar)})`, [
      { pointer: '/calendar', message: 'must be an object' },
    ]);
  const details: RuleViolationDetail[] = [];
  const patterns = Array.isArray(calendar.patternDates) ? calendar.patternDates : [];
  patterns.forEach((pattern, index) => details.push(...patternProblems(pattern, `/calendar/patternDates/${index}`)));
  for (const list of ['singleDates', ...EXCEPTION_LISTS] as const) {
    const entries = calendar[list];
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, index) => {
      if (isObject(entry) && entry.date !== undefined && parseDayNumber(entry.date) === undefined)
        details.push({
          pointer: `/calendar/${list}/${index}/date`,
          message: `date must be a day of the calendar, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (received: ${JSON.stringify(entry.date)})`,
        });
    });
  }
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
  // `false` is what every response says when they are not set (as the model's booleans are), so it
  // is not stored: a GET-modify-PUT then stores the calendar it read.
  for (const flag of RESPONSE_FLAGS) if (result[flag] === false) delete result[flag];
  if (patterns.length > 0)
    result.patternDates = patterns.map((pattern) =>
      isObject(pattern) ? withLocalTimestamps(withLocalTimestamps(pattern, 'startdate'), 'enddate') : pattern,
    );
  for (const list of EXCEPTION_LISTS) {
    if (Array.isArray(calendar[list]))
      result[list] = (calendar[list] as unknown[]).map((entry) =>
        isObject(entry) ? withLocalTimestamps(entry, 'date') : entry,
      );
  }
  if (Array.isArray(calendar.singleDates)) {
    const computed = new Set(computedDays(result).map(dayKey));
    result.singleDates = calendar.singleDates
      .map((entry) => (isObject(entry) ? withLocalTimestamps(entry, 'date') : entry))
      .filter(
        (entry) => !(isObject(entry) && typeof entry.date === 'string' && computed.has(dayKey(entry as SingleDate))),
      );
  }
  return result;
}

// @implements ITEM-020
/**
 * The calendar as read: `calendarType` normalised, the response flags present and, unless
 * `excludePatternDates`, the computed days added to `singleDates`, sorted by date. A day already
 * given as a single date keeps that entry. At most MAX_SINGLE_DATES entries, the earliest kept.
 */
export function expandCalendar(calendar: Loose, options: { excludePatternDates?: boolean } = {}): Loose {
  const details: RuleViolationDetail[] = [];
  const calendarType = normaliseCalendarType(calendar, details);
  const result: Loose = { ...calendar, calendarType: details.length === 0 ? calendarType : calendar.calendarType };
  for (const flag of RESPONSE_FLAGS) if (typeof result[flag] !== 'boolean') result[flag] = false;
  if (options.excludePatternDates === true) return result;

  const computed = computedDays(calendar);
  if (computed.length === 0) return result;
  const explicit = (Array.isArray(calendar.singleDates) ? calendar.singleDates : []) as SingleDate[];
  const taken = new Set<string>();
  for (const entry of explicit) if (typeof entry?.date === 'string') taken.add(entry.date.slice(0, 10));
  const added = computed.filter((day) => !taken.has(day.date.slice(0, 10)));
  const room = Math.max(0, MAX_SINGLE_DATES - explicit.length);
  result.singleDates = [...explicit, ...added.slice(0, room)].sort(byDate);
  return result;
}

/**
 * The days the calendar computes (DEC-ITEM-024, DEC-ITEM-102): every pattern's days (the first
 * pattern naming a day wins it), less Dutch public holidays with `excludeholidays`, plus the
 * `opens` days, less the `closeds`, with the `soldouts` and `cancelleds` marked on their time
 * slots; in date order.
 */
export function computedDays(calendar: Loose): ComputedDay[] {
  const byDay = new Map<number, ComputedDay>();
  const patterns = Array.isArray(calendar.patternDates) ? calendar.patternDates : [];
  for (const pattern of patterns) {
    for (const day of patternDays(pattern)) {
      const number = parseDayNumber(day.date)!;
      if (!byDay.has(number)) byDay.set(number, day);
    }
  }
  if (calendar.excludeholidays === true)
    for (const number of byDay.keys()) if (isDutchPublicHoliday(number)) byDay.delete(number);

  for (const open of exceptions(calendar.opens)) {
    if (byDay.has(open.day)) continue;
    const entry: ComputedDay = { date: `${open.date.slice(0, 10)}T00:00:00` };
    if (open.whens.length > 0) entry.when = open.whens.map(copyJson);
    byDay.set(open.day, entry);
  }
  for (const closed of exceptions(calendar.closeds)) {
    const day = byDay.get(closed.day);
    if (day === undefined) continue;
    if (closed.whens.length === 0 || day.when === undefined) {
      if (closed.whens.length === 0) byDay.delete(closed.day);
      continue;
    }
    day.when = day.when.filter((slot) => !closed.whens.some((gone) => sameSlot(slot, gone)));
    if (day.when.length === 0) byDay.delete(closed.day);
  }
  for (const [list, status] of [
    ['soldouts', 'soldout'],
    ['cancelleds', 'cancelled'],
  ] as const) {
    for (const exception of exceptions(calendar[list])) {
      const day = byDay.get(exception.day);
      if (day?.when === undefined) continue;
      day.when = day.when.map((slot) =>
        isObject(slot) && (exception.whens.length === 0 || exception.whens.some((marked) => sameSlot(slot, marked)))
          ? { ...slot, status }
          : slot,
      );
    }
  }
  return [...byDay.entries()].sort(([a], [b]) => a - b).map(([, day]) => day);
}

interface Exception {
  day: number;
  date: string;
  whens: unknown[];
}

/** The usable entries of an exception list: those naming a day of the calendar. */
function exceptions(list: unknown): Exception[] {
  if (!Array.isArray(list)) return [];
  const out: Exception[] = [];
  for (const entry of list) {
    if (!isObject(entry)) continue;
    const day = parseDayNumber(entry.date);
    if (day === undefined) continue;
    out.push({ day, date: entry.date as string, whens: Array.isArray(entry.whens) ? entry.whens : [] });
  }
  return out;
}

/** The model's When equality: the same start and end. */
function sameSlot(a: unknown, b: unknown): boolean {
  return isObject(a) && isObject(b) && a.timestart === b.timestart && a.timeend === b.timeend;
}

/** Derivation as the model's determineCalendarType(); a sent value in any letter case (DEC-ITEM-025). */
function normaliseCalendarType(calendar: Loose, details: RuleViolationDetail[]): CalendarType {
  const value = calendar.calendarType;
  if (value === undefined || value === null) {
    if (calendar.alwaysopen === true) return 'ALWAYSOPEN';
    if (calendar.onrequest === true) return 'ONREQUEST';
    if (Array.isArray(calendar.singleDates) && calendar.singleDates.length > 0) return 'SINGLEDATES';
    const patterns = Array.isArray(calendar.patternDates) ? calendar.patternDates : [];
    if (patterns.length > 0) {
      const first: unknown = patterns[0];
      const dated = isObject(first) && (first.startdate !== undefined || first.enddate !== undefined);
      return dated ? 'PATTERNDATES' : 'OPENINGTIMES';
    }
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

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** `entry` with a date-only `field` in the local timestamp form `YYYY-MM-DDT00:00:00`. */
function withLocalTimestamps(entry: Loose, field: string): Loose {
  const value = entry[field];
  return typeof value === 'string' && DATE_ONLY.test(value) ? { ...entry, [field]: `${value}T00:00:00` } : entry;
}

/**
 * A single date's day and everything else it holds, so that only an entry the patterns produce
 * exactly is left out on write: `when: []` or a field of its own is the writer's and stays.
 */
function dayKey(entry: { date: string }): string {
  const { date, ...rest } = entry as Loose;
  const fields = Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${String(date).slice(0, 10)}|${JSON.stringify(fields)}`;
}

function byDate(a: { date: string }, b: { date: string }): number {
  return a.date < b.date ? -1 : a.date > b.date ? 1 : 0;
}
