import { describe, expect, it } from 'vitest';
import { ByteLru, ENTRY_OVERHEAD_BYTES } from './byteLru.ts';

const cost = (key: string, bytes: number) => bytes + key.length + ENTRY_OVERHEAD_BYTES;

describe('ByteLru', () => {
  it('when the budget is exceeded, then the least recently used entries go first', () => {
    const budget = 8 * cost('a', 100);
    const cache = new ByteLru(budget);
    cache.set('a', Buffer.alloc(100));
    cache.set('b', Buffer.alloc(100));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    for (const key of ['c', 'd', 'e', 'f', 'g', 'h']) cache.set(key, Buffer.alloc(100));
    cache.set('i', Buffer.alloc(100));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.bytes).toBeLessThanOrEqual(budget);
  });

  it('when one entry would take more than an eighth of the budget, key and overhead included, then it is not kept', () => {
    const cache = new ByteLru(8 * cost('big', 100));
    cache.set('big', Buffer.alloc(101));
    expect(cache.get('big')).toBeUndefined();
    cache.set('bigger', Buffer.alloc(100));
    expect(cache.get('bigger')).toBeUndefined();
    expect(cache.bytes).toBe(0);
    cache.set('big', Buffer.alloc(100));
    expect(cache.bytes).toBe(cost('big', 100));
    // accepts() answers what set() would do, without the bytes.
    expect([cache.accepts('big', 100), cache.accepts('big', 101), cache.accepts('bigger', 100)]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('when a key is set again or deleted, then its cost is counted once or not at all', () => {
    const cache = new ByteLru(8000);
    cache.set('a', Buffer.alloc(50));
    cache.set('a', Buffer.alloc(70));
    expect(cache.bytes).toBe(cost('a', 70));
    expect(cache.size).toBe(1);
    cache.delete('a');
    expect(cache.bytes).toBe(0);
    cache.set('b', Buffer.alloc(1));
    cache.clear();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });

  it('when many tiny entries are set, then their keys and overhead bound them, not their bytes alone', () => {
    const cache = new ByteLru(64 * 1024);
    for (let i = 0; i < 10_000; i++) cache.set(`key-${i}`, Buffer.from('[]'));
    expect(cache.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(cache.size).toBeLessThan(500);
  });

  it("when a buffer is a slice of a larger memory (Node's small-buffer pool), then a copy of its own is kept", () => {
    const pooled = Buffer.from('[1,2,3]');
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
    const cache = new ByteLru(8000);
    cache.set('p', pooled);
    const kept = cache.get('p')!;
    expect(kept.equals(pooled)).toBe(true);
    expect(kept.buffer.byteLength).toBe(kept.length);
    const whole = Buffer.allocUnsafeSlow(16);
    cache.set('w', whole);
    expect(cache.get('w')).toBe(whole);
  });
});
