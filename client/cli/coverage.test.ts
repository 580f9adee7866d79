import { describe, expect, it } from 'vitest';
import { coverage, renderBar } from './coverage.ts';

// Stamps in the fake service's style: microseconds and a +01:00 offset.
const at = (seconds: number, micros = 0) =>
  `2026-03-01T11:00:${String(seconds).padStart(2, '0')}.${String(micros).padStart(6, '0')}+01:00`;

describe('coverage', () => {
  it('when the collection is empty (no newest item), then there is nothing to walk: 1', () => {
    expect(coverage({ start: undefined, end: undefined }, undefined)).toBe(1);
  });

  it('when a backfill has not received its first page, then 0', () => {
    expect(coverage({ start: undefined, end: at(40) }, undefined)).toBe(0);
  });

  it('when backfilling from the first item, then the share of the lastupdated range walked so far', () => {
    expect(coverage({ start: at(0), end: at(40) }, at(0))).toBe(0);
    expect(coverage({ start: at(0), end: at(40) }, at(10))).toBe(0.25);
    expect(coverage({ start: at(0), end: at(40) }, at(40))).toBe(1);
  });

  it('when incremental, then the range starts at the saved mark, not at the oldest item', () => {
    expect(coverage({ start: at(20), end: at(40) }, at(30))).toBe(0.5);
    expect(coverage({ start: at(20), end: at(40) }, at(20))).toBe(0);
  });

  it('when the newest item equals the start (nothing changed since the mark), then 1 once the boundary item is back', () => {
    expect(coverage({ start: at(20), end: at(20) }, undefined)).toBe(0);
    expect(coverage({ start: at(20), end: at(20) }, at(20))).toBe(1);
  });

  it('when items written during the run lie beyond the newest, then it is clamped at 1', () => {
    expect(coverage({ start: at(0), end: at(40) }, at(59))).toBe(1);
  });

  it('when stamps differ below a millisecond or in their offset, then they are still measured as instants', () => {
    expect(coverage({ start: at(0, 0), end: at(0, 400) }, at(0, 100))).toBeCloseTo(0.25, 9);
    expect(coverage({ start: '2026-03-01T10:00:00Z', end: '2026-03-01T10:00:40Z' }, at(10))).toBe(0.25);
  });
});

describe('renderBar', () => {
  it('when given a fraction, then the bar is filled in proportion and the percentage is floored', () => {
    expect(renderBar(0, 10)).toBe('[----------]   0%');
    expect(renderBar(0.574, 10)).toBe('[#####-----]  57%');
    expect(renderBar(0.999, 10)).toBe('[#########-]  99%');
    expect(renderBar(1, 10)).toBe('[##########] 100%');
  });

  it('when the fraction is out of range, then it is clamped', () => {
    expect(renderBar(1.5, 4)).toBe('[####] 100%');
    expect(renderBar(-1, 4)).toBe('[----]   0%');
  });
});
