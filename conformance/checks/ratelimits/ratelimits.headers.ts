import type { HttpResponse } from '../../http/httpClient.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { LIMITED } from '../../support/ratelimits.ts';

const LIMIT = 'x-ratelimit-limit';
const POLICY = 'x-ratelimit-policy';

/** A remaining-count header in any spelling: X-RateLimit-Remaining, X-Rate-Limit-Remaining, the IETF RateLimit. */
function isRemainingCount(name: string): boolean {
  const bare = name.toLowerCase().replace(/[-_]/g, '');
  return bare.includes('ratelimitremaining') || name.toLowerCase() === 'ratelimit';
}

export default defineCheck({
  id: 'ratelimits.headers',
  title:
    'X-RateLimit-Limit (20) and X-RateLimit-Policy (burst 40) on every limited list, the same on all, without a remaining count; not on unlimited endpoints',
  requirements: ['RATE-006', 'RATE-002', 'RATE-003', 'DEC-RATE-002', 'DEC-RATE-005', 'DEC-RATE-006'],
  tags: ['rate-limit'],
  needs: ['consumer'],
  run: async (ctx) => {
    const answers: HttpResponse[] = [];
    for (const { path, query } of LIMITED) {
      const res = await ctx.http.get(path, { query, validate: 'defer' });
      assertStatus(res, 200, { requirements: ['RATE-006'] });
      for (const name of [LIMIT, POLICY]) {
        if (res.headers[name] === undefined) {
          throw new CheckFailure({
            message: `GET ${path} (rate limited) answered without ${name}`,
            received: '(absent)',
            expected: `a static ${name} header`,
            pointer: `header/${name}`,
            requirements: ['RATE-006'],
            exchanges: [res.exchange],
          });
        }
      }
      const remaining = Object.keys(res.headers).find(isRemainingCount);
      if (remaining) {
        throw new CheckFailure({
          message: `GET ${path} answered a remaining-count header ${remaining}`,
          received: `${remaining}: ${res.headers[remaining]}`,
          expected: 'no remaining-count header',
          pointer: `header/${remaining}`,
          requirements: ['RATE-006'],
          exchanges: [res.exchange],
        });
      }
      res.assertConforms(['RATE-006']);
      answers.push(res);
    }
    const first = answers[0]!;
    const differs = answers.find(
      (r) => r.headers[LIMIT] !== first.headers[LIMIT] || r.headers[POLICY] !== first.headers[POLICY],
    );
    if (differs) {
      throw new CheckFailure({
        message: 'the X-RateLimit-* headers differ between limited endpoints; they are static',
        received: `${differs.headers[LIMIT]} / ${differs.headers[POLICY]}`,
        expected: `${first.headers[LIMIT]} / ${first.headers[POLICY]}`,
        requirements: ['RATE-006'],
        exchanges: [first.exchange, differs.exchange],
      });
    }

    // Endpoints the interface does not limit do not claim a limit.
    const id = (first.body as { id?: unknown }[] | undefined)?.[0]?.id;
    const unlimited: [string, Parameters<typeof ctx.http.get>[1]][] = [
      ['/actuator/health', { token: 'none' }],
      ['/assets', { query: { size: 1 } }],
      ...(typeof id === 'string' ? [[`/events/${encodeURIComponent(id)}`, {}] as [string, object]] : []),
    ];
    for (const [path, options] of unlimited) {
      const res = await ctx.http.get(path, { ...options, validate: 'defer' });
      res.assertConforms(['RATE-006']);
      const claimed = [LIMIT, POLICY].find((h) => res.headers[h] !== undefined);
      if (res.status === 200 && claimed) {
        throw new CheckFailure({
          message: `GET ${path}, which is not rate limited, answered ${claimed}`,
          received: `${claimed}: ${res.headers[claimed]}`,
          expected: 'X-RateLimit-* on the limited endpoints only',
          pointer: `header/${claimed}`,
          requirements: ['RATE-006'],
          exchanges: [res.exchange],
        });
      }
    }
    ctx.verified(['RATE-006']);

    // The values: the sustained per-second limit is 20, the burst 40.
    const limit = first.headers[LIMIT]!;
    const policy = first.headers[POLICY]!;
    if (limit.trim() !== '20') {
      throw new CheckFailure({
        message: `X-RateLimit-Limit is ${limit}; the sustained rate is 20 requests per second`,
        received: limit,
        expected: '20',
        pointer: `header/${LIMIT}`,
        requirements: ['RATE-002'],
        exchanges: [first.exchange],
      });
    }
    if (!/(^|[^0-9])40([^0-9]|$)/.test(policy) || !/(^|[^0-9])20([^0-9]|$)|w\s*=\s*1\b/.test(policy)) {
      throw new CheckFailure({
        message: `X-RateLimit-Policy ${policy} does not state the window and the burst of 40`,
        received: policy,
        expected: 'the policy as window and burst, e.g. 20;w=1;burst=40',
        pointer: `header/${POLICY}`,
        requirements: ['RATE-003'],
        exchanges: [first.exchange],
      });
    }
    ctx.verified(['RATE-002', 'RATE-003']);
    if (policy.replace(/\s+/g, '') !== '20;w=1;burst=40') {
      throw new CheckFailure({
        message: `X-RateLimit-Policy is ${policy}`,
        received: policy,
        expected: '20;w=1;burst=40',
        pointer: `header/${POLICY}`,
        requirements: ['DEC-RATE-002'],
        exchanges: [first.exchange],
      });
    }
    // DEC-RATE-006: refused requests to a limited endpoint carry the headers too.
    const refused = await ctx.http.get('/events', { query: { size: 1 }, token: 'none', validate: 'defer' });
    if (refused.status !== 401 || refused.headers[LIMIT] === undefined) {
      throw new CheckFailure({
        message: `GET /events without a token answered ${refused.status} ${refused.headers[LIMIT] === undefined ? 'without' : 'with'} X-RateLimit-Limit`,
        received: { status: refused.status, [LIMIT]: refused.headers[LIMIT] ?? '(absent)' },
        expected: { status: 401, [LIMIT]: '20' },
        requirements: ['DEC-RATE-006'],
        exchanges: [refused.exchange],
      });
    }
    refused.assertConforms(['DEC-RATE-006']);
    // DEC-RATE-005: of the dictionary only the root is limited.
    for (const path of [
      '/dictionary/categorizationOntology',
      '/dictionary/propertiesOntology',
      '/dictionary/userorganisations',
    ]) {
      const res = await ctx.http.get(path, { validate: 'defer' });
      res.assertConforms(['DEC-RATE-005']);
      if (res.headers[LIMIT] !== undefined) {
        throw new CheckFailure({
          message: `GET ${path} answered X-RateLimit-Limit; only the dictionary root is limited`,
          received: res.headers[LIMIT],
          expected: '(absent)',
          pointer: `header/${LIMIT}`,
          requirements: ['DEC-RATE-005'],
          exchanges: [res.exchange],
        });
      }
    }
  },
});
