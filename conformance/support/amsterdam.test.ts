import { describe, expect, it } from 'vitest';
import { amsterdamTime, SIZE_CAP_ENFORCED_FROM } from './amsterdam.ts';

describe('amsterdamTime', () => {
  it('when the date is in winter time, then Amsterdam is UTC+1', () => {
    expect(SIZE_CAP_ENFORCED_FROM.toISOString()).toBe('2026-10-31T23:00:00.000Z');
  });

  it('when the date is in summer time, then Amsterdam is UTC+2', () => {
    expect(amsterdamTime(2026, 7, 1, 12).toISOString()).toBe('2026-07-01T10:00:00.000Z');
  });
});
