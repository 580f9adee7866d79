import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestUser } from '../../test/support/sessions/testUsers.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { createTestAccount } from '../../test/support/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';

// DEC-AUTH-016: failed sign-ins and refreshes are throttled per client IP (and sign-ins per user
// name too): ten at once, then one every 6 s. The app's clock is fixed in each test, so "within
// the window" and "after Retry-After" are exact.

const BURST = 10;
const INTERVAL_MS = 6000;

describeEachEngine('sign-in and refresh throttle (DEC-AUTH-016)', (engine) => {
  let app: TestApp;
  const accountId = `acc-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    // TRUST_PROXY=loopback: the tests speak for several client IPs through X-Forwarded-For.
    app = await startTestApp(engine.db, { env: { RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: 'loopback' } });
    await createTestAccount(engine.db, { accountId, organisations: [`${accountId}-org`] });
  });
  afterAll(() => app.close());

  // Each test has its own instant, far from the others: buckets of earlier tests are at rest.
  let nextInstant = Date.now();
  const freshInstant = () => {
    nextInstant += 3_600_000;
    app.clock.set(nextInstant);
    return nextInstant;
  };
  let ipCounter = 0;
  const freshIp = () => `198.51.100.${++ipCounter}`;
  const user = () => createTestUser(engine.db, { accountId });

  const post = (path: string, body: unknown, ip: string) =>
    fetch(`${app.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify(body),
    });
  const signIn = (username: string, password: string, ip: string) => post('/auth/signin', { username, password }, ip);
  const refresh = (token: string, ip: string) => post('/auth/refresh', { refresh_token: token }, ip);
  async function failSignIns(username: string, ip: string, times: number): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < times; i++) out.push((await signIn(username, 'wrong password', ip)).status);
    return out;
  }

  it("when one client fails to sign in ten times, then the eleventh attempt is 429 with Retry-After in the error shape, even with the right password, and without the lists' X-RateLimit headers", async () => {
    freshInstant();
    const alice = await user();
    const ip = freshIp();
    expect(await failSignIns(alice.username, ip, BURST)).toEqual(Array(BURST).fill(401));
    const refused = await signIn(alice.username, alice.password, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(INTERVAL_MS / 1000));
    expect(refused.headers.get('x-ratelimit-limit')).toBeNull();
    expect(refused.headers.get('x-ratelimit-policy')).toBeNull();
    expect(await refused.json()).toEqual({
      status: 429,
      error: 'Too Many Requests',
      message:
        'too many failed sign-ins: at most 10 at once, then 10 per minute, per client IP and per user name; retry after 6 s',
    });
  });

  it('when the buckets of one IP and one user name are full, then another IP with another user name is unaffected, while the same user name from another IP and another user name from the same IP are throttled', async () => {
    freshInstant();
    const [alice, bob, carol] = [await user(), await user(), await user()];
    const [ip1, ip2, ip3] = [freshIp(), freshIp(), freshIp()];
    await failSignIns(alice.username, ip1, BURST);
    expect((await signIn(bob.username, bob.password, ip2)).status).toBe(200);
    expect((await signIn(bob.username, 'wrong', ip2)).status).toBe(401);
    // Distributed guessing of one user name: its own bucket.
    expect((await signIn(alice.username, alice.password, ip3)).status).toBe(429);
    // Password spraying from one IP: the IP's bucket.
    expect((await signIn(carol.username, carol.password, ip1)).status).toBe(429);
  });

  it('when one IP fails with ten different user names, then the eleventh user name is throttled too', async () => {
    freshInstant();
    const ip = freshIp();
    for (let i = 0; i < BURST; i++)
      expect((await signIn(`nobody-${randomUUID()}@example.test`, 'x', ip)).status).toBe(401);
    const dave = await user();
    expect((await signIn(dave.username, dave.password, ip)).status).toBe(429);
    expect((await signIn(dave.username, dave.password, freshIp())).status).toBe(200);
  });

  it('when the Retry-After has passed, then one more attempt is checked, and the next is refused again', async () => {
    const start = freshInstant();
    const erin = await user();
    const ip = freshIp();
    await failSignIns(erin.username, ip, BURST);
    app.clock.set(start + INTERVAL_MS - 1);
    const early = await signIn(erin.username, erin.password, ip);
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('1');
    app.clock.set(start + INTERVAL_MS);
    expect((await signIn(erin.username, 'still wrong', ip)).status).toBe(401);
    const again = await signIn(erin.username, erin.password, ip);
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe(String(INTERVAL_MS / 1000));
    app.clock.set(start + 2 * INTERVAL_MS);
    expect((await signIn(erin.username, erin.password, ip)).status).toBe(200);
  });

  it('when sign-ins succeed, then they do not count: many in a row all pass, and ten failures still get their 401', async () => {
    freshInstant();
    const frank = await user();
    const ip = freshIp();
    for (let i = 0; i < 2 * BURST; i++) expect((await signIn(frank.username, frank.password, ip)).status).toBe(200);
    expect(await failSignIns(frank.username, ip, BURST)).toEqual(Array(BURST).fill(401));
    expect((await signIn(frank.username, frank.password, ip)).status).toBe(429);
  });

  it('when twenty attempts arrive at once, then only ten are checked: an attempt holds its slot while it is checked', async () => {
    freshInstant();
    const ivan = await user();
    const ip = freshIp();
    const responses = await Promise.all(Array.from({ length: 2 * BURST }, () => signIn(ivan.username, 'wrong', ip)));
    expect(responses.map((r) => r.status).sort()).toEqual([...Array(BURST).fill(401), ...Array(BURST).fill(429)]);
  });

  it('when a body is malformed, then it is a 400 and does not count', async () => {
    freshInstant();
    const ip = freshIp();
    for (let i = 0; i < 2 * BURST; i++)
      expect((await post('/auth/signin', { username: 'only a name' }, ip)).status).toBe(400);
    const grace = await user();
    expect((await signIn(grace.username, grace.password, ip)).status).toBe(200);
  });

  it('when one client fails to refresh ten times, then the eleventh refresh is 429 with Retry-After; successful refreshes do not count; its sign-ins are a bucket of their own', async () => {
    freshInstant();
    const heidi = await user();
    const ip = freshIp();
    let token = ((await (await signIn(heidi.username, heidi.password, ip)).json()) as { refresh_token: string })
      .refresh_token;
    for (let i = 0; i < 2 * BURST; i++) {
      const response = await refresh(token, ip);
      expect(response.status).toBe(200);
      token = ((await response.json()) as { refresh_token: string }).refresh_token;
    }
    for (let i = 0; i < BURST; i++) expect((await refresh(`rt_${randomUUID()}`, ip)).status).toBe(401);
    const refused = await refresh(token, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(INTERVAL_MS / 1000));
    expect(await refused.json()).toEqual({
      status: 429,
      error: 'Too Many Requests',
      message: 'too many failed refreshes: at most 10 at once, then 10 per minute, per client IP; retry after 6 s',
    });
    // The refused refresh checked nothing: the token still works from another client.
    expect((await refresh(token, freshIp())).status).toBe(200);
    expect((await signIn(heidi.username, heidi.password, ip)).status).toBe(200);
  });
});
