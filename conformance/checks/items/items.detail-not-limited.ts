import type { HttpResponse } from '../../http/httpClient.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { COLLECTIONS } from '../../support/collections.ts';
import { listItems } from '../../support/lists.ts';

const BURST = 50;
/** Above the list cap of 2000: a list would answer the size rejection (LIMIT-003). */
const OVERSIZE = 5000;
/** The interface's size rejection, whose form it fixes (ERR-001). */
const SIZE_REJECTION = /size must not exceed/i;

export default defineCheck({
  id: 'items.detail-not-limited',
  title:
    'Detail reads are not rate limited (50 concurrent reads, beyond the list burst of 40, all answer 200) and not subject to the page-size cap (size=5000 answers the item)',
  requirements: ['DETAIL-002', 'DETAIL-001'],
  tags: ['items', 'rate-limit'],
  needs: ['consumer'],
  run: async (ctx) => {
    let path: string | undefined;
    for (const collection of COLLECTIONS) {
      const id = (await listItems(ctx, collection.path, { size: 1 }, { token: 'consumer' })).items[0]?.id;
      if (typeof id === 'string') {
        path = `${collection.path}/${encodeURIComponent(id)}`;
        break;
      }
    }
    if (!path) return ctx.skip('no collection lists an item the consumer token can read');
    // Validation deferred: a detail answer that is not one item is DETAIL-001's problem, not the rate limit's.
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => ctx.http.get(path, { on429: 'return', validate: 'defer' })),
    );
    const refused = answers.find((r) => r.status !== 200);
    if (refused) {
      throw new CheckFailure({
        message: `${BURST} concurrent detail reads of ${path}: one answered ${refused.status}`,
        received: answers.map((r) => r.status).join(','),
        expected: `${BURST} × 200 (detail reads are not rate limited)`,
        requirements: refused.status === 429 ? ['DETAIL-002'] : ['DETAIL-001'],
        exchanges: [refused.exchange],
      });
    }
    for (const res of answers) res.assertConforms(['DETAIL-001']);
    const id = (answers[0]!.body as { id?: unknown }).id;

    // The page-size cap: `size` above it on a detail read is no reason to refuse, alone or with
    // the other list parameters; the answer is the item the plain read answered. Whether a detail
    // read accepts those others is not shown, so only the size rejection (or refusing size) fails.
    const oversized = await ctx.http.get(path, { query: { size: OVERSIZE }, validate: 'defer' });
    assertTheItem(oversized, id, `GET ${path}?size=${OVERSIZE}`);
    const listLike = await ctx.http.get(path, {
      query: { size: OVERSIZE, page: 1, sortField: 'lastupdated', sortOrder: 'ASC' },
      validate: 'defer',
    });
    if (listLike.status === 200 || SIZE_REJECTION.test(listLike.text))
      assertTheItem(listLike, id, `GET ${path} with list parameters`);
    else
      ctx.note(
        `GET ${path}?size=${OVERSIZE}&page=1&sortField=lastupdated&sortOrder=ASC answered ${listLike.status}: the target refuses other list parameters on detail reads (not shown by the interface; not judged)`,
      );
    ctx.verified(['DETAIL-002']);
  },
});

/** A detail read with list parameters must answer the item itself, as without them. */
function assertTheItem(res: HttpResponse, id: unknown, what: string): void {
  const body = res.body as { id?: unknown } | undefined;
  if (res.status === 200 && !Array.isArray(body) && body?.id === id) {
    res.assertConforms(['DETAIL-001']);
    return;
  }
  throw new CheckFailure({
    message: `${what} answered ${res.status}${res.status === 200 ? ' without the item' : ''}: detail reads are not subject to the page-size cap`,
    received: `${res.status} ${res.text.slice(0, 200)}`,
    expected: `200 with the item ${String(id)}, as without the parameters`,
    requirements: ['DETAIL-002'],
    exchanges: [res.exchange],
  });
}
