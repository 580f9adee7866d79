import { ruleViolation } from './ruleViolation.ts';

// Timestamps on the wire (DEC-ITEM-009) and the `lastupdated` query value (DEC-LIST-005).

const SERVICE_TIME_ZONE = 'Europe/Amsterdam';

const DAY_MS = 24 * 60 * 60 * 1000;

/** ISO-8601 UTC with exactly three fraction digits and `Z`: `2026-11-20T08:30:00.123Z`. */
export function formatTimestamp(value: Date | number): string {
  const date = typeof value === 'number' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) throw new RangeError('formatTimestamp: invalid date');
  const year = date.getUTCFullYear();
  // What toISOString writes, built from the fields: several times faster. It writes years outside
  // 0–9999 with a sign and six digits, so those are left to it.
  if (year < 0 || year > 9999) return date.toISOString();
  const millis = date.getUTCMilliseconds();
  return `${dayOf(year, date)}T${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}:${twoDigits(date.getUTCSeconds())}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

/** The UTC day of `date` as `YYYY-MM-DD`: `toISOString().slice(0, 10)`, faster. */
export function formatDay(date: Date): string {
  const year = date.getUTCFullYear();
  return year >= 0 && year <= 9999 ? dayOf(year, date) : date.toISOString().slice(0, 10); // NaN: it throws there
}

function dayOf(year: number, date: Date): string {
  const yyyy = year >= 1000 ? String(year) : String(year).padStart(4, '0');
  return `${yyyy}-${twoDigits(date.getUTCMonth() + 1)}-${twoDigits(date.getUTCDate())}`;
}

function twoDigits(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

// Date, then optionally a time (T or space), then optionally an offset. `Z`, `+01:00`, `+0100`,
// `+01`. A space before the offset is read as `+`: an unencoded `+` in a query string arrives as a
// space, and reading `…T10:00:00 01:00` as +01:00 is what the sender meant.
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+\- ])(\d{2})(?::?(\d{2}))?)?)?$/;

/**
 * Reads an ISO-8601 date or timestamp as an instant. Without a UTC offset the value is a wall time
 * in `zone`; a date alone is the start of that day there; a wall time that occurs twice (the
 * autumn DST change) is the earlier instant; one that does not occur (the spring gap) is moved
 * forward by the gap, as java.time does. Fractions beyond milliseconds round up, so that
 * `stored >= parsed` never admits an instant before the value. Returns undefined when unparseable.
 */
export function parseInstant(value: string, zone: string = SERVICE_TIME_ZONE): Date | undefined {
  const m = ISO.exec(value.trim());
  if (m === null) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zulu, sign, oh, om = '00'] = m;
  const year = Number(y),
    month = Number(mo),
    day = Number(d);
  const hour = Number(h),
    minute = Number(mi),
    second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = Number(frac.padEnd(3, '0').slice(0, 3)) + (/[1-9]/.test(frac.slice(3)) ? 1 : 0);
  const wall = Date.UTC(year, month - 1, day, hour, minute, second) + millis;

  let instant: number;
  if (zulu !== undefined) {
    instant = wall;
  } else if (sign !== undefined && oh !== undefined) {
    const offsetHours = Number(oh),
      offsetMinutes = Number(om);
    if (offsetHours > 18 || offsetMinutes > 59) return undefined;
    const offset = (offsetHours * 60 + offsetMinutes) * 60_000 * (sign === '-' ? -1 : 1);
    instant = wall - offset;
  } else {
    instant = wallTimeToInstant(wall, zone);
  }
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** `parseInstant` for a query parameter: an unparseable value is a 400 naming it. */
export function parseLastupdated(value: string, name = 'lastupdated'): Date {
  const date = parseInstant(value);
  if (date === undefined) {
    throw ruleViolation(
      `query/${name}`,
      `${name} must be an ISO-8601 date or timestamp such as 2026-11-20T08:30:00.000Z, 2026-11-20T09:30:00 (Europe/Amsterdam) or 2026-11-20 (received: ${JSON.stringify(value)})`,
    );
  }
  return date;
}

/**
 * The instant at which the clocks in `zone` show `wall` (a wall time expressed as UTC millis).
 * Tries the offsets in force a day before and a day after (covering any transition between) and
 * keeps those that round-trip; several: the earlier instant; none (a gap): the offset from before.
 */
export function wallTimeToInstant(wall: number, zone: string = SERVICE_TIME_ZONE): number {
  const before = offsetAt(wall - DAY_MS, zone);
  const after = offsetAt(wall + DAY_MS, zone);
  const viaBefore = wall - before;
  const beforeFits = offsetAt(viaBefore, zone) === wall - viaBefore;
  if (after === before) return viaBefore;
  const viaAfter = wall - after;
  const afterFits = offsetAt(viaAfter, zone) === wall - viaAfter;
  if (beforeFits && afterFits) return Math.min(viaBefore, viaAfter);
  return afterFits ? viaAfter : viaBefore;
}

const HOUR_MS = 60 * 60 * 1000;
// Dates reach 8.64e15 ms either side of the epoch; an hour short of that, a whole hour is valid.
const CACHED_RANGE_MS = 8.64e15 - HOUR_MS;
/** Hours kept per zone before the cache starts over: about 6 years' worth of distinct hours. */
const MAX_CACHED_HOURS = 50_000;

/** The offset during one hour: `before` up to the instant `changeAt` (Infinity: no change), `after` from it. */
interface HourOffsets {
  readonly before: number;
  readonly changeAt: number;
  readonly after: number;
}

const hoursByZone = new Map<string, Map<number, HourOffsets>>();

/**
 * The UTC offset of `zone` at `instant`, in milliseconds (positive east of Greenwich).
 * Formatting a date in a zone is slow, and offsets only change at transitions, so the offsets of
 * each hour are worked out once per zone: those at its first and last second, and when they
 * differ, the second the change happens. Exact as long as a zone changes its offset at most once
 * within an hour: in the time zone database the closest two changes of one zone are days apart.
 */
export function offsetAt(instant: number, zone: string = SERVICE_TIME_ZONE): number {
  // Whole milliseconds within the cached range only: NaN throws there, and a fraction is rounded
  // one way by Date and the other way by the subtraction.
  if (!Number.isInteger(instant) || Math.abs(instant) > CACHED_RANGE_MS) return formattedOffsetAt(instant, zone);
  let hours = hoursByZone.get(zone);
  if (hours === undefined) {
    formatterFor(zone); // an unknown zone throws here and is never cached
    hours = new Map();
    hoursByZone.set(zone, hours);
  }
  let hour = Math.floor(instant / HOUR_MS);
  if (hour * HOUR_MS > instant) hour -= 1; // the division rounded up to the next hour
  let offsets = hours.get(hour);
  if (offsets === undefined) {
    offsets = offsetsDuringHour(hour * HOUR_MS, zone);
    if (hours.size >= MAX_CACHED_HOURS) hours.clear();
    hours.set(hour, offsets);
  }
  return instant < offsets.changeAt ? offsets.before : offsets.after;
}

/** The offsets of the hour from `start`; a change inside it is found by bisecting its seconds. */
function offsetsDuringHour(start: number, zone: string): HourOffsets {
  const before = formattedOffsetAt(start, zone);
  let last = start + HOUR_MS - 1000;
  const after = formattedOffsetAt(last, zone);
  if (after === before) return { before, changeAt: Infinity, after };
  let first = start; // invariant: the offset at `first` is `before`, at `last` it is `after`
  while (last - first > 1000) {
    const middle = first + Math.floor((last - first) / 2000) * 1000;
    if (formattedOffsetAt(middle, zone) === before) first = middle;
    else last = middle;
  }
  return { before, changeAt: last, after };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** `offsetAt` without the cache: the wall time `zone` shows at `instant`, minus the instant (to the second). */
export function formattedOffsetAt(instant: number, zone: string = SERVICE_TIME_ZONE): number {
  const formatter = formatterFor(zone);
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(new Date(instant))) parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
