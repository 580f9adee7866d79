import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createMemoryDeduper, DEFAULT_DEDUPE_TTL_MS } from './dedupe.ts';

const HOUR = 60 * 60 * 1000;

describe('createMemoryDeduper', () => {
  it('when an id comes again within the window, then it is a duplicate [HOOK-021]', () => {
    let now = 0;
    const d = createMemoryDeduper({ clock: () => now });
    expect(d.checkAndRemember('a')).toBe(false);
    now += 24 * HOUR; // the last retry of a delivery comes about 24 h after the first attempt
    expect(d.checkAndRemember('a')).toBe(true);
    expect(d.checkAndRemember('b')).toBe(false);
  });

  it('when the default window is asked, then it is at least 25 hours', () => {
    expect(DEFAULT_DEDUPE_TTL_MS).toBeGreaterThanOrEqual(25 * HOUR);
  });

  it('when the window has passed since the last sighting, then the id is forgotten', () => {
    let now = 0;
    const d = createMemoryDeduper({ clock: () => now, ttlMs: 10 });
    d.checkAndRemember('a');
    now = 9;
    expect(d.has('a')).toBe(true);
    now = 10;
    expect(d.has('a')).toBe(false);
    expect(d.size).toBe(0);
    expect(d.checkAndRemember('a')).toBe(false);
  });

  it('when more ids than the cap arrive, then the least recently seen go first', () => {
    const d = createMemoryDeduper({ maxEntries: 2, clock: () => 0 });
    d.checkAndRemember('a');
    d.checkAndRemember('b');
    d.checkAndRemember('a'); // refreshes a
    d.checkAndRemember('c'); // evicts b
    expect([d.has('a'), d.has('b'), d.has('c'), d.size]).toEqual([true, false, true, 2]);
  });

  it('when forget is called, then the id is processed again', () => {
    const d = createMemoryDeduper();
    d.checkAndRemember('a');
    d.forget('a');
    expect(d.checkAndRemember('a')).toBe(false);
  });

  it('property: memory never exceeds the cap, and an id is a duplicate iff seen within ttl and not evicted', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 50 }),
        fc.array(
          fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'), fc.integer({ min: 0, max: 20 })),
          { maxLength: 100 },
        ),
        (maxEntries, ttlMs, steps) => {
          let now = 0;
          const d = createMemoryDeduper({ maxEntries, ttlMs, clock: () => now });
          // Model: ordered list of [id, lastSeen], most recent last.
          let model: Array<[string, number]> = [];
          for (const [id, dt] of steps) {
            now += dt;
            model = model.filter(([, t]) => t + ttlMs > now);
            const expected = model.some(([m]) => m === id);
            model = model.filter(([m]) => m !== id);
            model.push([id, now]);
            if (model.length > maxEntries) model = model.slice(model.length - maxEntries);
            expect(d.checkAndRemember(id)).toBe(expected);
            expect(d.size).toBeLessThanOrEqual(maxEntries);
          }
        },
      ),
    );
  });
});
