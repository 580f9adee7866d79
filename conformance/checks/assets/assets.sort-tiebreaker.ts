import { variantsOf } from '../../model/variants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { listAssets, png, uploadAsset } from '../../support/assets.ts';
import type { Asset } from '../../support/assets.ts';

const COUNT = 4;

export default defineCheck({
  id: 'assets.sort-tiebreaker',
  title:
    'Paging one asset at a time over equal sort values (same size, uploads at once) neither repeats nor drops an asset, in either order',
  requirements: ['ASSET-013', 'DEC-ASSET-006'],
  tags: ['assets'],
  needs: ['write'],
  writes: `${COUNT} identical tiny PNG assets (the interface has no asset delete)`,
  run: async (ctx) => {
    const bytes = await png(3, 3);
    const before = new Date(Date.now() - 1000).toISOString();
    // Same bytes (equal size) and uploaded at once (created may tie too).
    const uploads = await Promise.all(
      Array.from({ length: COUNT }, (_, i) =>
        uploadAsset(ctx, bytes, {
          filename: `${ctx.tag('asset-tie')}-${i}.png`,
          contentType: 'image/png',
          requirements: ['ASSET-013'],
        }),
      ),
    );
    const ours = new Set(uploads.map((u) => u.asset.id));
    const from = uploads.map((u) => u.asset.created!).sort()[0] ?? before;
    for (const sortField of ['size', 'date']) {
      for (const sortOrder of ['asc', 'desc']) {
        const seen: string[] = [];
        let hits = 0;
        const exchanges = [];
        // Pages count from the target's first page number (not shown by the interface).
        const first = variantsOf(ctx).assetFirstPage;
        for (let page = 0; page < 200; page++) {
          const { res, page: answer } = await listAssets(
            ctx,
            { lastupdated: from, sortField, sortOrder, size: 1, page: first + page },
            { requirements: ['ASSET-013'] },
          );
          exchanges.push(res.exchange);
          hits = answer.hits;
          if (answer.results.length === 0) break;
          seen.push(...answer.results.map((a: Asset) => a.id));
          if (page + 1 >= hits) break;
        }
        const mine = seen.filter((id) => ours.has(id));
        const repeated = mine.filter((id, i) => mine.indexOf(id) !== i);
        const dropped = [...ours].filter((id) => !mine.includes(id));
        if (repeated.length > 0 || dropped.length > 0) {
          throw new CheckFailure({
            message: `paging GET /assets?sortField=${sortField}&sortOrder=${sortOrder}&size=1 over ${COUNT} assets with equal ${sortField === 'size' ? 'sizes' : 'upload times (or nearly)'} ${repeated.length ? `repeated ${repeated.length}` : ''}${repeated.length && dropped.length ? ' and ' : ''}${dropped.length ? `dropped ${dropped.length}` : ''}`,
            received: { pages: seen.length, repeated, dropped },
            expected: `each of the ${COUNT} exactly once`,
            requirements: ['ASSET-013'],
            exchanges: exchanges.slice(-3),
          });
        }
        // DEC-ASSET-006: ties in ascending id order.
        if (sortField === 'size') {
          const sorted = [...mine].sort();
          if (mine.join() !== sorted.join()) {
            ctx.verified(['ASSET-013']);
            throw new CheckFailure({
              message: `equal sizes are not ordered by ascending id (sortOrder=${sortOrder})`,
              received: mine,
              expected: sorted,
              requirements: ['DEC-ASSET-006'],
              exchanges: exchanges.slice(-3),
            });
          }
        }
      }
    }
  },
});
