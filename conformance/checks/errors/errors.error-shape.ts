import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import type { HttpResponse } from '../../http/httpClient.ts';
import { assertStatus } from '../../support/assert.ts';

export default defineCheck({
  id: 'errors.error-shape',
  title:
    'Error answers share the size-rejection shape {status, error, message} as JSON (status = the HTTP status, error = its reason phrase): an unknown item is a 404, a bad sortField a 400, a missing token a 401 with WWW-Authenticate: Bearer',
  requirements: ['DEC-ERR-001', 'DEC-ERR-002', 'API-001'],
  tags: ['errors', 'decision'],
  needs: ['consumer'],
  run: async (ctx) => {
    const cases: [string, () => Promise<HttpResponse>, number][] = [
      ['a detail read of an unknown id', () => ctx.http.get(`/events/${randomUUID()}`, { validate: 'defer' }), 404],
      [
        'an unknown sortField',
        () => ctx.http.get('/events', { query: { sortField: 'ctfnosuchfield' }, validate: 'defer' }),
        400,
      ],
      [
        'a detail read without a token',
        () => ctx.http.get(`/locations/${randomUUID()}`, { token: 'none', validate: 'defer' }),
        401,
      ],
    ];
    for (const [what, send, status] of cases) {
      const res = await send();
      if (res.status >= 400 && !/json/i.test(res.headers['content-type'] ?? '')) {
        throw new CheckFailure({
          message: `${what} answered ${res.status} without a JSON body`,
          received: res.headers['content-type'] ?? '(no Content-Type)',
          expected: 'application/json',
          pointer: 'header/Content-Type',
          requirements: ['API-001'],
          exchanges: [res.exchange],
        });
      }
      assertStatus(res, status, {
        message: `${what} answered ${res.status}, expected ${status}`,
        requirements: [status === 400 ? 'DEC-ERR-001' : 'DEC-ERR-002'],
      });
      const body = res.body as { status?: unknown; error?: unknown; message?: unknown } | undefined;
      const expected = { status, error: STATUS_CODES[status], message: '(a message)' };
      if (
        body?.status !== status ||
        body.error !== STATUS_CODES[status] ||
        typeof body.message !== 'string' ||
        body.message === ''
      ) {
        throw new CheckFailure({
          message: `${what}: the error body is not {status, error, message}`,
          received: body ?? res.text.slice(0, 200),
          expected,
          requirements: ['DEC-ERR-001'],
          exchanges: [res.exchange],
        });
      }
      if (status === 401 && !/^bearer\b/i.test(res.headers['www-authenticate'] ?? '')) {
        throw new CheckFailure({
          message: `${what}: the 401 has no WWW-Authenticate: Bearer`,
          received: res.headers['www-authenticate'] ?? '(absent)',
          expected: 'Bearer',
          pointer: 'header/WWW-Authenticate',
          requirements: ['DEC-ERR-002'],
          exchanges: [res.exchange],
        });
      }
      res.assertConforms(['DEC-ERR-001']);
    }
  },
});
