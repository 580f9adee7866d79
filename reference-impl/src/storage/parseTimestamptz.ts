// timestamptz values as PostgreSQL writes them (DateStyle ISO), read by hand: node-postgres' own
// parser (postgres-date) runs three regular expressions per value, and a list page reads two
// timestamps per item; in a profile of the backfill over HTTP it was 12 % of the service's busy time.

/**
 * `YYYY-MM-DD HH:MM:SS[.f{1,6}]±HH[:MM[:SS]]` as an instant, the fraction cut to the millisecond
 * as node-postgres does; undefined for any other form (BC years, five-digit years, infinity),
 * which is left to node-postgres' parser.
 */
export function parseIsoTimestamptz(value: string): Date | undefined {
  const n = value.length;
  if (
    n < 22 ||
    value.charCodeAt(4) !== 0x2d ||
    value.charCodeAt(7) !== 0x2d ||
    value.charCodeAt(10) !== 0x20 ||
    value.charCodeAt(13) !== 0x3a ||
    value.charCodeAt(16) !== 0x3a
  )
    return undefined;
  const year = digits(value, 0, 4),
    month = digits(value, 5, 2),
    day = digits(value, 8, 2);
  const hour = digits(value, 11, 2),
    minute = digits(value, 14, 2),
    second = digits(value, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  let at = 19,
    millis = 0;
  if (value.charCodeAt(at) === 0x2e) {
    const start = ++at;
    while (at < n && at - start < 6 && isDigit(value.charCodeAt(at))) at++;
    const length = at - start;
    if (length === 0) return undefined;
    const fraction = digits(value, start, Math.min(length, 3));
    millis = length >= 3 ? fraction : fraction * (length === 1 ? 100 : 10);
  }
  const sign = value.charCodeAt(at);
  if (sign !== 0x2b && sign !== 0x2d) return undefined;
  // ±HH, then up to two more :MM and :SS parts.
  let offsetSeconds = 0;
  for (let unit = 3600; ; unit /= 60) {
    const part = digits(value, at + 1, 2);
    if (part < 0) return undefined;
    offsetSeconds += part * unit;
    at += 3;
    if (at === n) break;
    if (unit === 1 || value.charCodeAt(at) !== 0x3a) return undefined;
  }
  // Date.UTC reads years 0–99 as 1900–1999: years below 100 take the slow path.
  if (year < 100) return undefined;
  const utc =
    Date.UTC(year, month - 1, day, hour, minute, second, millis) -
    (sign === 0x2d ? -offsetSeconds : offsetSeconds) * 1000;
  return new Date(utc);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** The decimal number of `count` digits at `start`; negative when one is not a digit (or missing). */
function digits(value: string, start: number, count: number): number {
  let n = 0;
  for (let i = start; i < start + count; i++) {
    const c = value.charCodeAt(i);
    if (!isDigit(c)) return -1;
    n = n * 10 + (c - 0x30);
  }
  return n;
}
