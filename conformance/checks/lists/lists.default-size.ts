import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { ALL_STATUSES } from '../../support/itemTypes.ts';
import { listItems } from '../../support/lists.ts';
import { writerToken } from '../../support/organisations.ts';

export default defineCheck({
  id: 'lists.default-size',
  title: 'Without size a list answers 20 items when more are visible (fewer only when fewer exist); size=0 is a 400',
  requirements: ['DEC-LIST-001'],
  tags: ['lists', 'decision'],
  needs: ['consumer'],
  run: async (ctx) => {
    const token = ctx.tokens.full ? writerToken(ctx) : 'consumer';
    const query = token === 'consumer' ? {} : { wfstatus: ALL_STATUSES };
    const plain = await listItems(ctx, '/events', query, { token });
    const many = await listItems(ctx, '/events', { ...query, size: 21 }, { token });
    const expected = Math.min(20, many.items.length);
    if (plain.items.length !== expected)
      throw new CheckFailure({
        message: `GET /events without size returned ${plain.items.length} items while ${many.items.length} are visible with size=21`,
        received: plain.items.length,
        expected,
        exchanges: [plain.res.exchange, many.res.exchange],
      });
    const zero = await ctx.http.get('/events', { query: { ...query, size: 0 }, token, validate: 'defer' });
    if (zero.status !== 400)
      throw new CheckFailure({
        message: `GET /events?size=0 answered ${zero.status}`,
        received: zero.status,
        expected: 400,
        pointer: 'status',
        exchanges: [zero.exchange],
      });
    zero.assertConforms();
  },
});
