import { variantsOf } from '../../model/variants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { listAssets, png, uploadAsset } from '../../support/assets.ts';
import { writerToken } from '../../support/organisations.ts';

export default defineCheck({
  id: 'assets.list-page',
  title: 'GET /assets answers a page {size, page, hits, results[]} of at most size assets',
  requirements: ['ASSET-002', 'ASSET-004', 'DEC-LIST-009', 'DEC-ASSET-006'],
  tags: ['assets'],
  needs: ['write'],
  writes: 'one tiny PNG asset (the interface has no asset delete)',
  run: async (ctx) => {
    await uploadAsset(ctx, await png(2, 3), {
      filename: `${ctx.tag('asset-page')}.png`,
      contentType: 'image/png',
      requirements: ['ASSET-004'],
    });
    // The first page's number is the target's choice (not shown by the interface).
    const first = variantsOf(ctx).assetFirstPage;
    const { res, page } = await listAssets(ctx, { size: 1 }, { requirements: ['ASSET-002', 'ASSET-004'] });
    if (
      page.size !== 1 ||
      page.page !== first ||
      typeof page.hits !== 'number' ||
      page.hits < 1 ||
      page.results.length !== 1
    ) {
      throw new CheckFailure({
        message: 'GET /assets?size=1 answered a page that does not match the request',
        received: { size: page.size, page: page.page, hits: page.hits, results: page.results.length },
        expected: { size: 1, page: first, hits: '≥ 1', results: 1 },
        // A page object it is (listAssets saw its results): the request's size was not honoured.
        requirements: ['ASSET-004'],
        exchanges: [res.exchange],
      });
    }
    ctx.verified(['ASSET-002', 'ASSET-004']);
    // Decisions: default size 20, page zero-based, the maximum 1000, unknown parameters 400.
    const plain = await listAssets(ctx, {}, { requirements: ['DEC-LIST-009'] });
    if (plain.page.size !== 20 || plain.page.page !== 0) {
      throw new CheckFailure({
        message: 'GET /assets without size/page does not answer size 20, page 0',
        received: { size: plain.page.size, page: plain.page.page },
        expected: { size: 20, page: 0 },
        requirements: ['DEC-LIST-009'],
        exchanges: [plain.res.exchange],
      });
    }
    for (const [query, requirement] of [
      [{ size: 1001 }, 'DEC-LIST-009'],
      [{ size: 0 }, 'DEC-LIST-009'],
      [{ sortfield: 'name' }, 'DEC-ASSET-006'],
    ] as const) {
      const r = await ctx.http.get('/assets', { query, token: writerToken(ctx), validate: 'defer' });
      assertStatus(r, 400, {
        requirements: [requirement],
        message: `GET /assets?${new URLSearchParams(query as unknown as Record<string, string>)} answered ${r.status}, expected 400`,
      });
      r.assertConforms([requirement]);
    }
  },
});
