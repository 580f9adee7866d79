import {
  LAST_DAY,
  dayNumberOf,
  daysInMonth,
  formatDayNumber,
  parseDayNumber,
  partsOf,
  weekdayOf,
  type DayParts,
} from './calendarDays.ts';
import type { RuleViolationDetail } from './ruleViolation.ts';
import { isObject } from '../../../spec/json.ts';

// The days of one calendar pattern in the operator's model's form (DEC-ITEM-010, DEC-ITEM-024):
// `{startdate, enddate, recurrencyType, occurrence, recurrence, opens[{month, weeknumber,
// daynumber, day, whens}]}`.

type Loose = Record<string, unknown>;

export const RECURRENCY_TYPES = ['daily', 'weekly', 'monthlySimple', 'monthlyComplex', 'yearly'] as const;
export type RecurrencyType = (typeof RECURRENCY_TYPES)[number];

/** Days one pattern contributes at most (DEC-ITEM-010). */
export const MAX_DAYS_PER_PATTERN = 366;

export interface ComputedDay {
  date: string;
  when?: unknown[];
}

/** The selectors of an `opens` entry; `day` is 1 = Sunday … 7 = Saturday, as the model numbers it. */
interface Open {
  month?: number;
  weeknumber?: number;
  daynumber?: number;
  day?: number;
  whens?: unknown[];
}

const SELECTOR_RANGES = { month: 12, weeknumber: 5, daynumber: 31, day: 7 } as const;

/**
 * The days of a pattern, `YYYY-MM-DDT00:00:00` with the time slots of the `opens` entries they
 * match, in date order, at most MAX_DAYS_PER_PATTERN. None for an ongoing pattern (no startdate,
 * or neither enddate nor occurrence) or one whose fields are not usable.
 */
export function patternDays(pattern: unknown): ComputedDay[] {
  const plan = planOf(pattern);
  if (plan === undefined) return [];
  const { start, end, period, recurrence, periods, opens } = plan;
  const days: ComputedDay[] = [];
  for (let day = start; day <= end && days.length < MAX_DAYS_PER_PATTERN;) {
    const index = period.indexOf(day, start);
    if (periods !== undefined && index >= periods * recurrence) break;
    const skip = index % recurrence;
    if (skip !== 0) {
      day = Math.max(day + 1, period.startOf(start, index + recurrence - skip));
      continue;
    }
    const parts = partsOf(day),
      weekday = weekdayOf(day) + 1;
    const matching = opens.filter((open) => matches(open, parts, weekday));
    if (matching.length > 0) {
      const whens = matching.flatMap((open) => open.whens ?? []);
      const entry: ComputedDay = { date: `${formatDayNumber(day)}T00:00:00` };
      if (whens.length > 0) entry.when = whens.map(copyJson);
      days.push(entry);
    }
    day += 1;
  }
  return days;
}

interface Period {
  /** The period `day` is in, counted from the one `start` is in. */
  indexOf(day: number, start: number): number;
  /** The first day of period `index`. */
  startOf(start: number, index: number): number;
}

const mondayOf = (day: number): number => day - ((weekdayOf(day) + 6) % 7);
const monthIndex = (day: number): number => {
  const { year, month } = partsOf(day);
  return year * 12 + month - 1;
};

// Weeks run from Monday to Sunday (ISO 8601, as in the Netherlands).
const PERIODS: Readonly<Record<RecurrencyType, Period>> = {
  daily: { indexOf: (day, start) => day - start, startOf: (start, index) => start + index },
  weekly: {
    indexOf: (day, start) => (mondayOf(day) - mondayOf(start)) / 7,
    startOf: (start, index) => mondayOf(start) + 7 * index,
  },
  monthlySimple: monthly(),
  monthlyComplex: monthly(),
  yearly: {
    indexOf: (day, start) => partsOf(day).year - partsOf(start).year,
    startOf: (start, index) => firstOfMonth((partsOf(start).year + index) * 12),
  },
};

function monthly(): Period {
  return {
    indexOf: (day, start) => monthIndex(day) - monthIndex(start),
    startOf: (start, index) => firstOfMonth(monthIndex(start) + index),
  };
}

function firstOfMonth(monthCount: number): number {
  const year = Math.floor(monthCount / 12);
  return dayNumberOf(year, monthCount - year * 12 + 1, 1);
}

interface Plan {
  start: number;
  end: number;
  period: Period;
  recurrence: number;
  periods: number | undefined;
  opens: Open[];
}

function planOf(pattern: unknown): Plan | undefined {
  if (!isObject(pattern) || patternProblems(pattern, '').length > 0) return undefined;
  const start = parseDayNumber(pattern.startdate);
  if (start === undefined) return undefined;
  const end = parseDayNumber(pattern.enddate);
  const periods = positiveInteger(pattern.occurrence);
  if (end === undefined && periods === undefined) return undefined;
  const opens = (Array.isArray(pattern.opens) ? pattern.opens : []) as Open[];
  const type = recurrencyTypeOf(pattern);
  return {
    start,
    end: Math.min(end ?? LAST_DAY, LAST_DAY),
    period: PERIODS[type],
    recurrence: positiveInteger(pattern.recurrence) ?? 1,
    periods,
    opens: opens.length > 0 ? opens : [defaultOpen(type, start)],
  };
}

/** Absent: `weekly` when there are `opens` (as the model's cleanupData sets it), else `daily`. */
function recurrencyTypeOf(pattern: Loose): RecurrencyType {
  if ((RECURRENCY_TYPES as readonly unknown[]).includes(pattern.recurrencyType))
    return pattern.recurrencyType as RecurrencyType;
  return Array.isArray(pattern.opens) && pattern.opens.length > 0 ? 'weekly' : 'daily';
}

/** Without `opens` a pattern repeats on its startdate's day of the period. */
function defaultOpen(type: RecurrencyType, start: number): Open {
  const { month, day } = partsOf(start);
  const weekday = weekdayOf(start) + 1;
  switch (type) {
    case 'daily':
      return {};
    case 'weekly':
      return { day: weekday };
    case 'monthlySimple':
      return { daynumber: day };
    case 'monthlyComplex':
      return { weeknumber: day > 28 ? 5 : Math.ceil(day / 7), day: weekday };
    case 'yearly':
      return { month, daynumber: day };
  }
}

/** `weekday`: 1 = Sunday … 7 = Saturday. */
function matches(open: Open, { year, month, day }: DayParts, weekday: number): boolean {
  if (open.day !== undefined && open.day !== weekday) return false;
  if (open.daynumber !== undefined && open.daynumber !== day) return false;
  if (open.month !== undefined && open.month !== month) return false;
  if (open.weeknumber !== undefined) {
    // 1–4: the days 1–7 … 22–28; 5: the last seven days of the month.
    if (open.weeknumber === 5 ? day <= daysInMonth(year, month) - 7 : Math.ceil(day / 7) !== open.weeknumber)
      return false;
  }
  return true;
}

/**
 * What is wrong with a pattern that a schema cannot say: days that do not exist, an end before
 * the start, the fields of the form before the model's, selectors out of range.
 */
export function patternProblems(pattern: unknown, pointer: string): RuleViolationDetail[] {
  if (!isObject(pattern)) return [{ pointer, message: 'a calendar pattern must be an object' }];
  const problems: RuleViolationDetail[] = [];
  for (const field of ['startdate', 'enddate'] as const) {
    const value = pattern[field];
    if (value !== undefined && parseDayNumber(value) === undefined)
      problems.push({
        pointer: `${pointer}/${field}`,
        message: `${field} must be a day of the calendar, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (received: ${JSON.stringify(value)})`,
      });
  }
  const start = parseDayNumber(pattern.startdate),
    end = parseDayNumber(pattern.enddate);
  if (start !== undefined && end !== undefined && end < start)
    problems.push({
      pointer: `${pointer}/enddate`,
      message: `enddate must not be before startdate (received: ${String(pattern.startdate)} to ${String(pattern.enddate)})`,
    });
  if (pattern.weekdays !== undefined)
    problems.push({
      pointer: `${pointer}/weekdays`,
      message:
        'weekdays is the former pattern form: use recurrencyType "weekly" with one opens entry per day, opens[].day 1 = Sunday … 7 = Saturday',
    });
  if (pattern.when !== undefined)
    problems.push({
      pointer: `${pointer}/when`,
      message: "when is the former pattern form: a pattern's time slots are opens[].whens",
    });
  if (
    pattern.recurrencyType !== undefined &&
    !(RECURRENCY_TYPES as readonly unknown[]).includes(pattern.recurrencyType)
  )
    problems.push({
      pointer: `${pointer}/recurrencyType`,
      message: `recurrencyType must be one of ${RECURRENCY_TYPES.join(', ')} (received: ${JSON.stringify(pattern.recurrencyType)})`,
    });
  for (const field of ['occurrence', 'recurrence'] as const) {
    if (pattern[field] !== undefined && positiveInteger(pattern[field]) === undefined)
      problems.push({
        pointer: `${pointer}/${field}`,
        message: `${field} must be a whole number from 1 (received: ${JSON.stringify(pattern[field])})`,
      });
  }
  if (pattern.opens !== undefined && !Array.isArray(pattern.opens))
    problems.push({ pointer: `${pointer}/opens`, message: 'opens must be an array' });
  (Array.isArray(pattern.opens) ? pattern.opens : []).forEach((open, index) =>
    problems.push(...openProblems(open, `${pointer}/opens/${index}`)),
  );
  return problems;
}

function openProblems(open: unknown, pointer: string): RuleViolationDetail[] {
  if (!isObject(open)) return [{ pointer, message: 'an opens entry must be an object' }];
  const problems: RuleViolationDetail[] = [];
  for (const [field, max] of Object.entries(SELECTOR_RANGES)) {
    const value = open[field];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 1 && (value as number) <= max))
      problems.push({
        pointer: `${pointer}/${field}`,
        message: `${field} must be a whole number from 1 to ${max} (received: ${JSON.stringify(value)})`,
      });
  }
  if (open.whens !== undefined && !Array.isArray(open.whens))
    problems.push({ pointer: `${pointer}/whens`, message: 'whens must be an array' });
  return problems;
}

function positiveInteger(value: unknown): number | undefined {
  return Number.isInteger(value) && (value as number) >= 1 ? (value as number) : undefined;
}

/** A copy of a JSON value (all a stored document holds), so computed days share nothing with the pattern. */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson) as T;
  const copy: Loose = {};
  for (const key of Object.keys(value)) {
    const member = copyJson((value as Loose)[key]);
    // A `__proto__` key stays an own member, as JSON.parse makes it.
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true });
    else copy[key] = member;
  }
  return copy as T;
}
