import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/HttpError.ts';
import { AUTH_BURST, AUTH_POLICY, createAuthThrottle } from './authThrottle.ts';
import { createMemoryStore } from './memoryStore.ts';

const from = (ip: string) => ({ ip });

describe('createAuthThrottle (DEC-AUTH-016)', () => {
  const throttle = () =>
    createAuthThrottle({ store: createMemoryStore({ policy: AUTH_POLICY, now: () => 1_000_000 }) });

  it("when the user name's bucket is full, then the attempt is a 429 and gives back the slot it took of its IP", async () => {
    const t = throttle();
    for (let i = 0; i < AUTH_BURST; i++) await t.begin('signin', from(`192.0.2.${i}`), 'alice');
    const refused = await t.begin('signin', from('198.51.100.1'), 'alice').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 429, headers: { 'Retry-After': '6' } });
    for (let i = 0; i < AUTH_BURST; i++) await t.begin('signin', from('198.51.100.1'), `user-${i}`);
    await expect(t.begin('signin', from('198.51.100.1'), 'bob')).rejects.toMatchObject({ status: 429 });
  });

  it('when an attempt is released, then its slots are back, once however often it is released', async () => {
    const t = throttle();
    for (let i = 0; i < 3 * AUTH_BURST; i++) {
      const attempt = await t.begin('signin', from('203.0.113.5'), 'carol');
      await attempt.release();
      await attempt.release();
    }
    for (let i = 0; i < AUTH_BURST; i++) await t.begin('signin', from('203.0.113.5'), 'carol');
    await expect(t.begin('signin', from('203.0.113.5'), 'carol')).rejects.toMatchObject({ status: 429 });
  });

  it('when sign-ins of one IP are throttled, then its refreshes are a bucket of their own, keyed by IP only', async () => {
    const t = throttle();
    for (let i = 0; i < AUTH_BURST; i++) await t.begin('signin', from('203.0.113.7'), `u${i}`);
    await expect(t.begin('signin', from('203.0.113.7'), 'fresh')).rejects.toMatchObject({ status: 429 });
    for (let i = 0; i < AUTH_BURST; i++) await t.begin('refresh', from('203.0.113.7'));
    await expect(t.begin('refresh', from('203.0.113.7'))).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/^too many failed refreshes/),
    });
    // IPv6 clients share their /64 (DEC-RATE-004).
    for (let i = 0; i < AUTH_BURST; i++) await t.begin('refresh', from(`2001:db8:1:2::${i + 1}`));
    await expect(t.begin('refresh', from('2001:db8:1:2:ffff::9'))).rejects.toMatchObject({ status: 429 });
  });
});
