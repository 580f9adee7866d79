import { describe, expect, it } from 'vitest';
import { ByteLru } from './byteLru.ts';

describe('ByteLru', () => {
  it('when the budget is exceeded, then the least recently used entries go first', () => {
    const cache = new ByteLru(800);
    cache.set('a', Buffer.alloc(100));
    cache.set('b', Buffer.alloc(100));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    for (const key of ['c', 'd', 'e', 'f', 'g', 'h']) cache.set(key, Buffer.alloc(100));
    cache.set('i', Buffer.alloc(100));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.bytes).toBeLessThanOrEqual(800);
  });

  it('when one entry would take more than an eighth of the budget, then it is not kept', () => {
    const cache = new ByteLru(800);
    cache.set('big', Buffer.alloc(101));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('when a key is set again, then its bytes are counted once', () => {
    const cache = new ByteLru(800);
    cache.set('a', Buffer.alloc(50));
    cache.set('a', Buffer.alloc(70));
    expect(cache.bytes).toBe(70);
    expect(cache.size).toBe(1);
  });
});
