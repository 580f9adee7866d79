// @implements SYNC-001
// Timestamps from the service are compared as instants but never re-formatted: the mark and
// the next `lastupdated` are always a string the service itself sent (SYNC-001). Parsing is our
// own, not Date's, so fractions finer than a millisecond (PostgreSQL gives microseconds) still
// order correctly.

export interface Instant {
  /** Epoch milliseconds (whole). */
  ms: number;
  /** Nanoseconds beyond `ms`, 0…999 999. */
  subMsNanos: number;
}

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Parses an ISO-8601 date or timestamp. A value without an offset is read as a wall-clock time
 * in one fixed zone (compared as if UTC): values from one service share their zone, and the
 * interface's own timestamps carry offsets.
 */
export function parseInstant(value: string): Instant {
  const m = ISO_RE.exec(value.trim());
  if (!m) throw new RangeError(`not an ISO-8601 timestamp: ${JSON.stringify(value)}`);
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', offset] = m;
  // Date.UTC rolls over (month 13 = next January); out-of-range fields are malformed instead.
  const outOfRange =
    Number(mo) < 1 ||
    Number(mo) > 12 ||
    Number(d) < 1 ||
    Number(d) > 31 ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s) > 60;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (outOfRange || Number.isNaN(ms)) throw new RangeError(`not an ISO-8601 timestamp: ${JSON.stringify(value)}`);
  const nanos = Number(frac.padEnd(9, '0'));
  ms += Math.floor(nanos / 1_000_000);
  if (offset && offset.toUpperCase() !== 'Z') {
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = offset.slice(1).replace(':', '');
    const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
    ms -= sign * minutes * 60_000;
  }
  return { ms, subMsNanos: nanos % 1_000_000 };
}

/** Negative, zero or positive as `a` is before, at or after `b`. */
export function compareInstants(a: string, b: string): number {
  if (a === b) return 0;
  return compareParsed(parseInstant(a), parseInstant(b));
}

/** compareInstants for instants already parsed. */
export function compareParsed(x: Instant, y: Instant): number {
  return x.ms - y.ms || x.subMsNanos - y.subMsNanos;
}

/** The later of two service timestamps (the first on a tie), or the defined one. */
export function laterOf(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return compareInstants(b, a) > 0 ? b : a;
}
