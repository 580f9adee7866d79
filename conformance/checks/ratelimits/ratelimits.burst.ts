import type { HttpResponse } from '../../http/httpClient.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { acknowledge, assertStatus } from '../../support/assert.ts';
import {
  BURST_ALLOWANCE,
  burst,
  burstAllowance,
  countBy,
  describeCounts,
  LIMITED,
  openConnections,
  paced,
  REFILL_MS,
  SUSTAINED_PER_SECOND,
} from '../../support/ratelimits.ts';

const BURST = 100;
/** Concurrent requests to each other limited endpoint right after the burst. */
const PROBE = 10;
const PACED_PER_SECOND = 15;
const FLOOD_PER_SECOND = 2 * SUSTAINED_PER_SECOND;
const SERIES_MS = 2_000;
/** Long enough that twice the sustained rate exceeds what the sustained rate and any fair burst allow. */
const FLOOD_MS = 4_000;
const GRACE_MS = 250;
/** Rest before the burst: twice a bucket's refill, so a sliding window of up to 2 s has forgotten every earlier request too. */
const REST_MS = 2 * REFILL_MS;
const MESSAGE_RE = /^rate limit exceeded: 20 requests per second with a burst of 40; retry after \d+ s$/;

function fail(
  message: string,
  received: unknown,
  expected: unknown,
  requirements: string[],
  answers: readonly HttpResponse[],
  pointer?: string,
): CheckFailure {
  return new CheckFailure({
    message,
    received,
    expected,
    pointer,
    requirements,
    exchanges: answers.slice(0, 3).map((r) => r.exchange),
  });
}

/** RATE-003 from the burst from rest: a failure, or undefined when the count is fair to any limiter. */
function judgeBurst(passed: number, spreadMs: number, answers: readonly HttpResponse[]): CheckFailure | undefined {
  const { min, max } = burstAllowance(spreadMs);
  if (passed >= min && passed <= max) return undefined;
  const firstRefused = answers.find((r) => r.status === 429);
  return fail(
    passed < min
      ? `from rest only ${passed} of ${BURST} concurrent GET /events passed: the burst is ${BURST_ALLOWANCE} requests above the sustained rate`
      : `from rest ${passed} of ${BURST} concurrent GET /events passed within ${spreadMs} ms: more than the burst of ${BURST_ALLOWANCE} above 20 per second allows`,
    `${passed} × 200 within ${spreadMs} ms`,
    `${min} to ${max} × 200 (a burst of ${BURST_ALLOWANCE}, fair to token-bucket, GCRA and sliding-window limiters)`,
    ['RATE-003'],
    firstRefused ? [firstRefused] : answers.slice(-1),
  );
}

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-policy'] as const;

/** RATE-006 over answers of one endpoint: the X-RateLimit-* headers are static, so 429s carry its 200s' values. */
function judgeStatic(path: string, answers: readonly HttpResponse[]): CheckFailure | undefined {
  const passed = answers.find((r) => r.status === 200);
  if (!passed) return undefined;
  for (const r of answers) {
    const h = RATE_HEADERS.find((h) => r.headers[h] !== undefined && r.headers[h] !== passed.headers[h]);
    if (h === undefined) continue;
    return fail(
      `GET ${path} answered ${h}: ${r.headers[h]} with ${r.status}, ${passed.headers[h] ?? '(absent)'} with 200: the X-RateLimit-* headers are static`,
      r.headers[h],
      passed.headers[h] ?? '(absent)',
      ['RATE-006'],
      [r, passed],
      `header/${h}`,
    );
  }
  return undefined;
}

export default defineCheck({
  id: 'ratelimits.burst',
  title:
    'A burst of 100 concurrent list requests from rest lets the burst of 40 through and is then throttled with 429 (never 503), Retry-After in whole seconds ≥ 1 and the X-RateLimit-* headers of its 200s; after Retry-After a request passes; a client at 15 requests per second is not throttled, one at 40 per second is',
  requirements: [
    'RATE-003',
    'RATE-004',
    'ERR-005',
    'RATE-006',
    'RATE-001',
    'RATE-002',
    'DEC-RATE-003',
    'DEC-RATE-004',
    'DEC-RATE-006',
    'DEC-RATE-001',
  ],
  tags: ['rate-limit'],
  needs: ['consumer'],
  // Drains the per-IP budget every other check shares.
  order: 'last',
  dependsOn: ['ratelimits.headers'],
  run: async (ctx) => {
    await ctx.sleep(REST_MS);
    await openConnections(ctx, BURST);
    const started = Date.now();
    const answers = await burst(ctx, BURST);
    const spreadMs = Date.now() - started;
    // The spec problems the client found, kept for the 429 body's verdict (DEC-RATE-003) at the end.
    const problems = new Map(answers.map((r) => [r, r.problems]));
    acknowledge(answers);
    const counts = countBy(answers);
    ctx.note(
      `${BURST} concurrent GET /events from a rested bucket, answered within ${spreadMs} ms: ${describeCounts(answers)}`,
    );
    const unavailable = answers.filter((r) => r.status === 503);
    if (unavailable.length > 0)
      throw fail(
        `a burst of ${BURST} list requests got ${unavailable.length} × 503: throttling is a 429, never a 503`,
        describeCounts(answers),
        '200s and 429s',
        ['ERR-005'],
        unavailable,
      );
    const odd = answers.filter((r) => r.status !== 200 && r.status !== 429);
    if (odd.length > 0)
      throw fail(
        `a burst of ${BURST} list requests got ${odd[0]!.status}`,
        describeCounts(answers),
        '200s and 429s',
        ['RATE-004'],
        odd,
      );
    const refused = answers.filter((r) => r.status === 429);
    if (refused.length === 0)
      throw fail(
        `${BURST} concurrent GET /events were all answered 200: the list is not rate limited (burst 40 above 20 per second)`,
        describeCounts(answers),
        'at least one 429',
        ['RATE-001', 'RATE-004'],
        answers.slice(-1),
      );
    for (const r of refused) {
      const retryAfter = r.headers['retry-after'];
      if (retryAfter === undefined || !/^\d+$/.test(retryAfter.trim()) || Number(retryAfter) < 1) {
        throw fail(
          `a 429 has Retry-After ${retryAfter === undefined ? '(absent)' : JSON.stringify(retryAfter)}`,
          retryAfter ?? '(absent)',
          'Retry-After in whole seconds, at least 1',
          ['RATE-004', 'ERR-005'],
          [r],
          'header/Retry-After',
        );
      }
      for (const h of RATE_HEADERS) {
        if (r.headers[h] === undefined)
          throw fail(`a 429 has no ${h}`, '(absent)', `the ${h} header`, ['ERR-005'], [r], `header/${h}`);
      }
    }
    ctx.verified(['ERR-005']);
    // Judged once the other rules are: a wrong burst size or changing headers must not hide them.
    const burstSize = judgeBurst(counts[200] ?? 0, spreadMs, answers);
    const changing = [judgeStatic('/events', answers)];

    // The budget is per client IP across the limited endpoints: with it drained, each is throttled too.
    const others = await Promise.all(LIMITED.slice(1).map(({ path, query }) => burst(ctx, PROBE, path, query)));
    for (const [i, { path, query }] of LIMITED.slice(1).entries()) {
      acknowledge(others[i]!);
      changing.push(judgeStatic(path, others[i]!));
      if (others[i]!.some((r) => r.status === 429)) continue;
      // Not throttled with the shared budget drained: maybe a budget per endpoint; then burst it.
      const own = await burst(ctx, BURST, path, query);
      acknowledge(own);
      changing.push(judgeStatic(path, own));
      ctx.note(`GET ${path} has a budget of its own: ${describeCounts(own)}`);
      if (!own.some((r) => r.status === 429))
        throw fail(
          `${BURST} concurrent GET ${path} were never throttled: ${path} is rate limited`,
          describeCounts(own),
          'at least one 429',
          ['RATE-001'],
          own.slice(-1),
        );
    }
    // Every limited endpoint is throttled; that the budget is kept per client IP, one client cannot see.
    ctx.unobservable(
      ['RATE-001'],
      'every limited endpoint was throttled, but one client cannot see that the budget is kept per client IP',
    );

    // Decisions, while the budget is drained: an unauthenticated request counts against the IP
    // (DEC-RATE-006), and a client-chosen X-Forwarded-For does not mint a fresh bucket (DEC-RATE-004).
    const anonymous = await Promise.all(
      Array.from({ length: PROBE }, () =>
        ctx.http.get('/events', { query: { size: 1 }, token: 'none', on429: 'return', validate: 'defer' }),
      ),
    );
    // 30 at once over three made-up addresses: the drained bucket refills 20 a second, so a few may
    // pass while the probes are sent, but only fresh per-address buckets let all of them through.
    const spoofed = await Promise.all(
      Array.from({ length: 30 }, (_, i) => ['203.0.113.7', '198.51.100.23', '2001:db8::1'][i % 3]!).map((ip) =>
        ctx.http.get('/events', {
          query: { size: 1 },
          headers: { 'x-forwarded-for': ip },
          on429: 'return',
          validate: 'defer',
        }),
      ),
    );
    acknowledge([...anonymous, ...spoofed]);
    const decisions: CheckFailure[] = [];
    if (!anonymous.some((r) => r.status === 429))
      decisions.push(
        fail(
          `with the budget drained, ${PROBE} GET /events without a token were never throttled: the limit applies before authentication`,
          describeCounts(anonymous),
          'a 429',
          ['DEC-RATE-006'],
          anonymous,
        ),
      );
    if (spoofed.every((r) => r.status === 200))
      decisions.push(
        fail(
          'with the budget drained, requests with a made-up X-Forwarded-For passed: a client can mint fresh buckets',
          describeCounts(spoofed),
          'the same 429 (X-Forwarded-For is trusted only from a configured proxy)',
          ['DEC-RATE-004'],
          spoofed,
        ),
      );

    // Waiting as Retry-After says is enough for one request to pass.
    const wait = Math.max(...refused.map((r) => Number(r.headers['retry-after']))) * 1000;
    await ctx.sleep(wait);
    const after = await ctx.http.get('/events', { query: { size: 1 }, on429: 'return' });
    assertStatus(after, 200, {
      requirements: ['RATE-004'],
      message: `after waiting Retry-After (${wait / 1000} s) GET /events answered ${after.status}`,
    });
    ctx.verified(['RATE-004']);

    // Sustained: right after a burst, a client at 15 requests per second is never throttled.
    acknowledge(await burst(ctx, 60));
    // A few slots' grace first: a request in the very next 50 ms may still be refused.
    await ctx.sleep(GRACE_MS);
    const steady = await paced(ctx, PACED_PER_SECOND, SERIES_MS);
    acknowledge(steady);
    const throttled = steady.filter((r) => r.status === 429);
    if (throttled.length > 0)
      throw fail(
        `a client sending ${PACED_PER_SECOND} requests per second, starting ${GRACE_MS} ms after a burst, got ${throttled.length} × 429 in ${SERIES_MS / 1000} s: the sustained rate is ${SUSTAINED_PER_SECOND} per second`,
        describeCounts(steady),
        `no 429 at ${PACED_PER_SECOND}/s`,
        ['RATE-002'],
        throttled,
      );

    // And from above: over any stretch of time a limiter lets through at most the sustained rate
    // plus one burst. A burst, then twice the sustained rate for 4 s, must be refused in part.
    const floodStarted = Date.now();
    const drain = await burst(ctx, 60);
    const flood = await paced(ctx, FLOOD_PER_SECOND, FLOOD_MS);
    const floodMs = Date.now() - floodStarted;
    acknowledge([...drain, ...flood]);
    const passedFlood = flood.filter((r) => r.status === 200).length;
    const passedAll = passedFlood + drain.filter((r) => r.status === 200).length;
    const ceiling = burstAllowance(floodMs).max;
    ctx.note(
      `60 concurrent, then ${FLOOD_PER_SECOND}/s for ${FLOOD_MS / 1000} s, within ${floodMs} ms: ${passedAll} passed (at most ${ceiling} allowed)`,
    );
    if (passedAll > ceiling)
      throw fail(
        `60 concurrent GET /events, then ${FLOOD_PER_SECOND} per second for ${FLOOD_MS / 1000} s: ${passedAll} of ${drain.length + flood.length} passed within ${floodMs} ms, more than ${SUSTAINED_PER_SECOND} per second and a burst allow`,
        `${passedAll} × 200 (${describeCounts(flood)} in the paced part)`,
        `at most ${ceiling} × 200`,
        ['RATE-002'],
        flood.slice(-1),
      );
    ctx.verified(['RATE-002']);
    if (burstSize) throw burstSize;
    ctx.verified(['RATE-003']);
    const unstatic = changing.find((f) => f !== undefined);
    if (unstatic) throw unstatic;
    ctx.verified(['RATE-006']);

    ctx.unverified(
      ['DEC-RATE-001'],
      `information, not judged (timing over a network is not exact): from rest ${counts[200] ?? 0} of ${BURST} concurrent requests passed (decided: 41); drained, then ${FLOOD_PER_SECOND}/s for ${FLOOD_MS / 1000} s passed ${passedFlood} (${(passedFlood / (FLOOD_MS / 1000)).toFixed(1)}/s; decided: ${SUSTAINED_PER_SECOND}/s)`,
    );

    const first = decisions[0];
    if (first) throw first;

    // DEC-RATE-003: the 429 body.
    const sample = refused[0]!;
    const message = (sample.body as { message?: unknown } | undefined)?.message;
    if (typeof message !== 'string' || !MESSAGE_RE.test(message)) {
      throw fail(
        'the 429 body does not carry the decided message',
        message ?? sample.text.slice(0, 200),
        'rate limit exceeded: 20 requests per second with a burst of 40; retry after <N> s',
        ['DEC-RATE-003'],
        [sample],
        '/message',
      );
    }
    const problem = problems.get(sample)?.[0];
    if (problem)
      throw fail(
        `the 429 answer does not conform to the spec: ${problem.message}`,
        problem.received,
        problem.expected,
        ['DEC-RATE-003'],
        [sample],
        problem.pointer,
      );
  },
});
