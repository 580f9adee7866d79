import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareInstants, laterOf, parseInstant } from './instant.ts';

describe('compareInstants', () => {
  it('when offsets differ, then instants are compared, not strings', () => {
    expect(compareInstants('2026-03-01T11:00:00.000+01:00', '2026-03-01T10:00:00.000Z')).toBe(0);
    expect(compareInstants('2026-03-01T10:30:00Z', '2026-03-01T11:00:00+01:00')).toBeGreaterThan(0);
    expect(compareInstants('2026-03-01T09:00:00-02:00', '2026-03-01T10:59:59.999Z')).toBeGreaterThan(0);
  });

  it('when values differ below a millisecond, then the order is still exact (Date would tie them)', () => {
    expect(compareInstants('2026-03-01T10:00:00.123456Z', '2026-03-01T10:00:00.123457Z')).toBeLessThan(0);
    expect(compareInstants('2026-03-01T10:00:00.1234561Z', '2026-03-01T10:00:00.123456Z')).toBeGreaterThan(0);
    expect(compareInstants('2026-03-01T10:00:00.5Z', '2026-03-01T10:00:00.500000Z')).toBe(0);
  });

  it('when the value is not ISO-8601, then it throws', () => {
    for (const bad of [
      'yesterday',
      '2026-13-01T00:00:00Z',
      '2026-01-32T00:00:00Z',
      '2026-1-1T00:00:00Z',
      '2026-01-01T25:00:00Z',
      '1700000000',
    ])
      expect(() => parseInstant(bad)).toThrow(RangeError);
  });

  it('laterOf keeps the first on a tie and ignores undefined', () => {
    expect(laterOf(undefined, 'b')).toBe('b');
    expect(laterOf('2026-01-01T00:00:00Z', undefined)).toBe('2026-01-01T00:00:00Z');
    expect(laterOf('2026-01-01T01:00:00+01:00', '2026-01-01T00:00:00Z')).toBe('2026-01-01T01:00:00+01:00');
  });

  it('property: agrees with Date for millisecond UTC values in any offset', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        (a, b, offsetMin) => {
          const withOffset = (ms: number) => {
            const local = new Date(ms + offsetMin * 60_000).toISOString().slice(0, 23);
            const sign = offsetMin < 0 ? '-' : '+';
            const abs = Math.abs(offsetMin);
            return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
          };
          expect(Math.sign(compareInstants(withOffset(a), new Date(b).toISOString()))).toBe(Math.sign(a - b));
          expect(parseInstant(withOffset(a)).ms).toBe(a);
        },
      ),
    );
  });
});
