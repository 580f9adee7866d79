import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { COLLECTIONS } from '../../support/collections.ts';

export default defineCheck({
  id: 'errors.unknown-query-parameter',
  title:
    'A list request with an unknown query parameter (a typo such as sortfield) is a 400 whose message names the parameter',
  requirements: ['DEC-LIST-008', 'DEC-ERR-001'],
  tags: ['errors', 'decision'],
  needs: ['consumer'],
  run: async (ctx) => {
    for (const { path } of COLLECTIONS.slice(0, 2)) {
      const res = await ctx.http.get(path, { query: { sortfield: 'title' }, validate: 'defer' });
      assertStatus(res, 400, {
        requirements: ['DEC-LIST-008'],
        message: `GET ${path}?sortfield=title answered ${res.status}; an unknown parameter is a 400`,
      });
      res.assertConforms(['DEC-ERR-001']);
      const message = (res.body as { message?: unknown } | undefined)?.message;
      if (typeof message !== 'string' || !message.includes('sortfield'))
        throw new CheckFailure({
          message: 'the 400 does not name the unknown parameter',
          received: message,
          expected: 'a message naming sortfield',
          requirements: ['DEC-LIST-008'],
          exchanges: [res.exchange],
        });
    }
  },
});
