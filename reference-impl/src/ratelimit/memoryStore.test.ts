import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memoryStore.ts';

async function takeMany(store: ReturnType<typeof createMemoryStore>, key: string, n: number) {
  let allowed = 0;
  for (let i = 0; i < n; i++) if ((await store.take(key)).allowed) allowed++;
  return allowed;
}

describe('createMemoryStore', () => {
  it('when one key takes 100 at one instant, then 41 pass and the refusal carries Retry-After 1 [RATE-003]', async () => {
    const store = createMemoryStore({ now: () => 1_000_000 });
    expect(await takeMany(store, 'a', 41)).toBe(41);
    expect(await store.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('when two keys burst at the same instant, then each has its own 41 [RATE-001]', async () => {
    const store = createMemoryStore({ now: () => 5_000 });
    expect(await takeMany(store, '192.0.2.1', 100)).toBe(41);
    expect(await takeMany(store, '192.0.2.2', 100)).toBe(41);
  });

  it('when a caller passes now, then it overrides the store clock', async () => {
    const store = createMemoryStore({ now: () => 0 });
    expect(await takeMany(store, 'k', 41)).toBe(41);
    expect((await store.take('k', 49)).allowed).toBe(false);
    expect((await store.take('k', 50)).allowed).toBe(true);
  });

  it('when keys go idle, then the sweep drops them once their TAT has passed', async () => {
    let now = 0;
    const store = createMemoryStore({ now: () => now });
    await takeMany(store, 'x', 41);
    await store.take('y');
    expect(store.size).toBe(2);
    now = 2049;
    store.sweep();
    expect(store.size).toBe(1); // y (TAT 50) is gone, x (TAT 2050) not yet
    now = 2050;
    store.sweep();
    expect(store.size).toBe(0);
  });

  it('when a new key arrives every ms for 20 s, then the map stays bounded by the keys of the last few seconds', async () => {
    let now = 0;
    const store = createMemoryStore({ now: () => now, sweepEveryMs: 1000 });
    let peak = 0;
    for (now = 0; now < 20_000; now++) {
      await store.take(`client-${now}`);
      peak = Math.max(peak, store.size);
    }
    // each key lives 50 ms after one request; with a sweep per second at most ~1050 remain
    expect(peak).toBeLessThanOrEqual(1100);
  });
  it('when a full key gets a slot back, then exactly one more request passes; a slot given back at rest changes nothing (DEC-AUTH-016)', async () => {
    const store = createMemoryStore({ now: () => 0 });
    for (let i = 0; i < 41; i++) await store.take('full');
    expect((await store.take('full')).allowed).toBe(false);
    await store.refund('full');
    expect((await store.take('full')).allowed).toBe(true);
    expect((await store.take('full')).allowed).toBe(false);
    await store.refund('idle');
    expect(store.size).toBe(1);
    await store.take('once');
    await store.refund('once');
    expect(store.size).toBe(1);
  });
});
