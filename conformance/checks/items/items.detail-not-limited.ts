import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { COLLECTIONS } from '../../support/collections.ts';
import { listItems } from '../../support/items.ts';

const BURST = 50;

export default defineCheck({
  id: 'items.detail-not-limited',
  title:
    'Detail reads are not rate limited: 50 concurrent reads of one item, beyond the list burst of 40, all answer 200',
  requirements: ['DETAIL-002', 'DETAIL-001'],
  tags: ['items', 'rate-limit'],
  needs: ['consumer'],
  run: async (ctx) => {
    let target: string | undefined;
    for (const { path } of COLLECTIONS) {
      const id = (await listItems(ctx, path, { size: 1 }, { token: 'consumer' })).items[0]?.id;
      if (typeof id === 'string') {
        target = `${path}/${encodeURIComponent(id)}`;
        break;
      }
    }
    if (!target) return ctx.skip('no collection lists an item the consumer token can read');
    const path = target;
    // Validation deferred: a detail answer that is not one item is DETAIL-001's problem, not the rate limit's.
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => ctx.http.get(path, { on429: 'return', validate: 'defer' })),
    );
    const refused = answers.find((r) => r.status !== 200);
    if (refused) {
      throw new CheckFailure({
        message: `${BURST} concurrent detail reads of ${target}: one answered ${refused.status}`,
        received: answers.map((r) => r.status).join(','),
        expected: `${BURST} × 200 (detail reads are not rate limited)`,
        requirements: refused.status === 429 ? ['DETAIL-002'] : ['DETAIL-001'],
        exchanges: [refused.exchange],
      });
    }
    ctx.verified(['DETAIL-002']);
    for (const res of answers) res.assertConforms(['DETAIL-001']);
  },
});
