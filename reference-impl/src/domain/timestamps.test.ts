import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RuleViolation } from './ruleViolation.ts';
import {
  formatDay,
  formatTimestamp,
  formattedOffsetAt,
  offsetAt,
  parseInstant,
  parseLastupdated,
  wallTimeToInstant,
} from './timestamps.ts';

const iso = (value: string) => parseInstant(value)?.toISOString();

describe('parseInstant (lastupdated query values)', () => {
  it('when the value has Z or an offset, then it is that instant [FILTER-001]', () => {
    expect(iso('2026-11-20T08:30:00.123Z')).toBe('2026-11-20T08:30:00.123Z');
    expect(iso('2026-11-20T09:30:00.123+01:00')).toBe('2026-11-20T08:30:00.123Z');
    expect(iso('2026-11-20T03:30:00-0500')).toBe('2026-11-20T08:30:00.000Z');
    expect(iso('2026-11-20T10:30+02')).toBe('2026-11-20T08:30:00.000Z');
  });

  it('when the offset lost its + to URL decoding, then the space is read as + [DEC-LIST-005]', () => {
    expect(iso('2026-11-20T09:30:00 01:00')).toBe('2026-11-20T08:30:00.000Z');
  });

  it('when the value has no offset, then it is a wall time in Europe/Amsterdam [DEC-LIST-005]', () => {
    expect(iso('2026-11-20T09:30:00')).toBe('2026-11-20T08:30:00.000Z'); // CET, +01:00
    expect(iso('2026-07-01T12:00:00.5')).toBe('2026-07-01T10:00:00.500Z'); // CEST, +02:00
    expect(iso('2026-07-01 12:00')).toBe('2026-07-01T10:00:00.000Z');
  });

  it('when the value is a date alone, then it is the start of that day in Amsterdam [DEC-LIST-005]', () => {
    expect(iso('2026-11-01')).toBe('2026-10-31T23:00:00.000Z');
    expect(iso('2026-07-01')).toBe('2026-06-30T22:00:00.000Z');
  });

  it('when a wall time occurs twice at the autumn DST change, then the earlier instant is used [DEC-LIST-005]', () => {
    // 2026-10-25 03:00 CEST → 02:00 CET: 02:30 happens at 00:30Z and again at 01:30Z.
    expect(iso('2026-10-25T02:30:00')).toBe('2026-10-25T00:30:00.000Z');
    expect(iso('2026-10-25T03:00:00')).toBe('2026-10-25T02:00:00.000Z');
  });

  it('when a wall time falls in the spring gap, then it moves forward by the gap [DEC-LIST-005]', () => {
    // 2026-03-29 02:00 CET → 03:00 CEST: 02:30 does not exist; read as 03:30 CEST.
    expect(iso('2026-03-29T02:30:00')).toBe('2026-03-29T01:30:00.000Z');
  });

  it('when the fraction is finer than a millisecond, then it rounds up so >= never admits an earlier instant', () => {
    expect(iso('2026-11-20T08:30:00.123000Z')).toBe('2026-11-20T08:30:00.123Z');
    expect(iso('2026-11-20T08:30:00.1231Z')).toBe('2026-11-20T08:30:00.124Z');
  });

  it('when the value is not a valid date or timestamp, then it is undefined', () => {
    for (const bad of [
      '',
      'yesterday',
      '2026-13-01',
      '2026-02-30',
      '2026-02-29',
      '2026-11-20T25:00:00',
      '2026-11-20T08:60',
      '20261120',
      '2026-11-20T08:30:00+19:00',
      '1700000000000',
      '2026-11-20T08:30:00ZZ',
    ]) {
      expect(parseInstant(bad), bad).toBeUndefined();
    }
    expect(iso('2028-02-29')).toBe('2028-02-28T23:00:00.000Z');
  });

  it('when every formatted timestamp is parsed back, then it is the same instant', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1971-01-01'), max: new Date('2199-12-31'), noInvalidDate: true }),
        (date) => {
          expect(parseInstant(formatTimestamp(date))?.getTime()).toBe(date.getTime());
        },
      ),
    );
  });

  it('when a wall time in Amsterdam is parsed, then formatting it back in Amsterdam gives the same wall time (outside the gap)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1980-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        (date) => {
          const instant = Math.floor(date.getTime() / 1000) * 1000;
          const wall = new Date(instant + offsetAt(instant)).toISOString().slice(0, 19);
          const back = parseInstant(wall)!.getTime();
          // Same wall time; at an ambiguous hour the earlier of the two instants.
          expect(back + offsetAt(back)).toBe(instant + offsetAt(instant));
          expect(back).toBeLessThanOrEqual(instant);
        },
      ),
    );
  });
});

describe('parseLastupdated', () => {
  it('when the value is unparseable, then it is a 400 naming the parameter and the value [ERR-002] [DEC-LIST-005]', () => {
    const error = (() => {
      try {
        parseLastupdated('last tuesday');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(RuleViolation);
    expect((error as RuleViolation).kind).toBe('invalid');
    expect((error as RuleViolation).message).toContain('lastupdated');
    expect((error as RuleViolation).message).toContain('"last tuesday"');
    expect((error as RuleViolation).details).toEqual([
      { pointer: 'query/lastupdated', message: (error as RuleViolation).message },
    ]);
  });
});

describe('formatTimestamp', () => {
  it('when formatting, then it is UTC with exactly three fraction digits and Z [DEC-ITEM-009]', () => {
    expect(formatTimestamp(new Date(Date.UTC(2026, 10, 20, 8, 30)))).toBe('2026-11-20T08:30:00.000Z');
    expect(formatTimestamp(1_700_000_000_007)).toBe('2023-11-14T22:13:20.007Z');
    expect(() => formatTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('when formatting any date, then it is what toISOString gives (years before 1000 and outside 0–9999 too)', () => {
    const edges = [
      0,
      -1,
      Date.UTC(0, 0, 1) - 1,
      Date.UTC(-1, 11, 31),
      new Date('0000-01-01T00:00:00Z').getTime(),
      new Date('0999-12-31T23:59:59.999Z').getTime(),
      new Date('9999-12-31T23:59:59.999Z').getTime(),
      new Date('+010000-01-01T00:00:00Z').getTime(),
      8.64e15,
      -8.64e15,
    ];
    for (const ms of edges) expect(formatTimestamp(ms)).toBe(new Date(ms).toISOString());
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), (date) => {
        expect(formatTimestamp(date)).toBe(date.toISOString());
        expect(formatTimestamp(date.getTime())).toBe(date.toISOString());
      }),
      { numRuns: 2000 },
    );
  });
});

describe('formatDay', () => {
  it('when formatting any date, then it is the first ten characters of toISOString', () => {
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), (date) => {
        expect(formatDay(date)).toBe(date.toISOString().slice(0, 10));
      }),
      { numRuns: 2000 },
    );
    for (const ms of [
      0,
      -1,
      new Date('0042-03-04T00:00:00Z').getTime(),
      new Date('+010000-01-01T00:00:00Z').getTime(),
      -8.64e15,
    ]) {
      expect(formatDay(new Date(ms))).toBe(new Date(ms).toISOString().slice(0, 10));
    }
  });

  it('when the date is invalid, then it throws a RangeError as toISOString does', () => {
    expect(() => formatDay(new Date(Number.NaN))).toThrow(RangeError);
  });
});

// Zones with every kind of change: DST both hemispheres, offsets of 30 and 45 minutes and of
// seconds (Monrovia until 1972), a 30-minute DST shift (Lord Howe), a skipped day (Apia, 2011),
// and zones without DST now (Kolkata, Tokyo).
const ZONES = [
  'Europe/Amsterdam',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Tokyo',
  'Australia/Adelaide',
  'Australia/Lord_Howe',
  'America/St_Johns',
  'America/Sao_Paulo',
  'Pacific/Apia',
  'Africa/Monrovia',
];
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** The instants (to the second) at which `zone` changes its offset, found without the cache. */
function offsetChanges(zone: string, from: number, to: number): number[] {
  const step = 3 * DAY; // in the time zone database, no zone changes twice within 3 days
  const changes: number[] = [];
  let previous = formattedOffsetAt(from, zone);
  for (let t = from + step; t <= to; t += step) {
    const offset = formattedOffsetAt(t, zone);
    if (offset === previous) continue;
    let low = t - step,
      high = t;
    while (high - low > 1000) {
      const middle = low + Math.floor((high - low) / 2000) * 1000;
      if (formattedOffsetAt(middle, zone) === previous) low = middle;
      else high = middle;
    }
    changes.push(high);
    previous = offset;
  }
  return changes;
}

const changesByZone = new Map(
  ZONES.map((zone) => [zone, offsetChanges(zone, Date.UTC(1890, 0, 1), Date.UTC(2040, 0, 1))]),
);

/** The result or the error of `fn`, to compare two computations that may throw. */
function outcome(fn: () => number): { value: number } | { error: string } {
  try {
    return { value: fn() };
  } catch (error) {
    return { error: String(error) };
  }
}

/** wallTimeToInstant as it was before offsets were cached: the reference for the fast one. */
function uncachedWallTimeToInstant(wall: number, zone: string): number {
  const before = formattedOffsetAt(wall - DAY, zone);
  const after = formattedOffsetAt(wall + DAY, zone);
  const fits = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => formattedOffsetAt(instant, zone) === wall - instant);
  return fits.length > 0 ? Math.min(...fits) : wall - before;
}

describe('offsetAt (offsets cached per hour)', () => {
  it('when asked around every offset change since 1890 in zones of every kind, then it is the uncached offset', () => {
    const wrong: string[] = [];
    for (const [zone, changes] of changesByZone) {
      expect(changes.length, zone).toBeGreaterThan(0);
      for (const change of changes) {
        for (const delta of [
          -HOUR,
          -HOUR + 1,
          -60_000,
          -1001,
          -1000,
          -999,
          -1,
          0,
          1,
          999,
          1000,
          60_000,
          HOUR - 1,
          HOUR,
        ]) {
          const instant = change + delta;
          if (offsetAt(instant, zone) !== formattedOffsetAt(instant, zone))
            wrong.push(`${zone} ${new Date(instant).toISOString()}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('when asked at any instant in any of the zones, then it is the uncached offset', () => {
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), fc.constantFrom(...ZONES), (date, zone) => {
        expect(offsetAt(date.getTime(), zone)).toBe(formattedOffsetAt(date.getTime(), zone));
      }),
      { numRuns: 2000 },
    );
  });

  it('when the instant has a fraction, is not finite or is at the edge of the range of dates, then it is the uncached outcome', () => {
    for (const instant of [
      1.5,
      -0.5,
      -1000.5,
      1e-9,
      Number.NaN,
      Infinity,
      -Infinity,
      8.64e15,
      -8.64e15,
      8.64e15 - HOUR,
      8.64e15 - HOUR + 1,
      -8.64e15 + HOUR - 1,
      8.64e15 + 1,
      -8.64e15 - 1,
    ]) {
      expect(
        outcome(() => offsetAt(instant)),
        String(instant),
      ).toEqual(outcome(() => formattedOffsetAt(instant)));
    }
  });

  it('when the zone is unknown, then it throws as the uncached computation does, every time', () => {
    const expected = outcome(() => formattedOffsetAt(0, 'Mars/Olympus_Mons'));
    expect(expected).toHaveProperty('error');
    expect(outcome(() => offsetAt(0, 'Mars/Olympus_Mons'))).toEqual(expected);
    expect(outcome(() => offsetAt(0, 'Mars/Olympus_Mons'))).toEqual(expected);
  });
});

describe('wallTimeToInstant', () => {
  it('when the wall time is in a gap, an overlap or next to one, then it is the instant the uncached search finds', () => {
    const wrong: string[] = [];
    for (const [zone, changes] of changesByZone) {
      for (const change of changes) {
        const before = formattedOffsetAt(change - 1000, zone),
          after = formattedOffsetAt(change, zone);
        for (const wall of [change + before, change + after]) {
          for (const delta of [-HOUR, -30 * 60_000, -1, 0, 1, 30 * 60_000, HOUR]) {
            if (wallTimeToInstant(wall + delta, zone) !== uncachedWallTimeToInstant(wall + delta, zone))
              wrong.push(`${zone} ${new Date(wall + delta).toISOString()}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('when the wall time is any time, then it is the instant the uncached search finds', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1800-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
        fc.constantFrom(...ZONES),
        (date, zone) => {
          expect(wallTimeToInstant(date.getTime(), zone)).toBe(uncachedWallTimeToInstant(date.getTime(), zone));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('when the wall time is not a number, then it throws as the uncached search does', () => {
    expect(outcome(() => wallTimeToInstant(Number.NaN))).toEqual(
      outcome(() => uncachedWallTimeToInstant(Number.NaN, 'Europe/Amsterdam')),
    );
  });
});
