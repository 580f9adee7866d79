import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { listAssets, noisyPng, uploadAsset } from '../../support/assets.ts';
import type { Asset } from '../../support/assets.ts';
import { writerToken } from '../../support/organisations.ts';

export default defineCheck({
  id: 'assets.sort',
  title:
    'Assets sort by date (also the fallback for an unknown sortField), name, size, modified and its alias lastupdated (never-modified assets as least recently changed); sortOrder in either letter case',
  requirements: ['ASSET-011', 'ASSET-012', 'ASSET-014', 'DEC-ASSET-006'],
  tags: ['assets'],
  needs: ['write'],
  writes: 'three tiny PNG assets (the interface has no asset delete)',
  run: async (ctx) => {
    const tag = ctx.tag('asset-sort');
    // Upload order x, y, z; names sort y, z, x; sizes differ; only y gets modified.
    const specs = [
      { key: 'x', name: `${tag}-c.png`, bytes: await noisyPng(12, 12) },
      { key: 'y', name: `${tag}-a.png`, bytes: await noisyPng(2, 2) },
      { key: 'z', name: `${tag}-b.png`, bytes: await noisyPng(6, 6) },
    ];
    const assets: Record<string, Asset> = {};
    for (const s of specs) {
      assets[s.key] = (
        await uploadAsset(ctx, s.bytes, { filename: s.name, contentType: 'image/png', requirements: ['ASSET-011'] })
      ).asset;
      await ctx.sleep(5);
    }
    const put = await ctx.http.put(`/assets/${encodeURIComponent(assets.y!.id)}`, {
      token: writerToken(ctx),
      json: { title: ctx.tag('modified') },
    });
    assertStatus(put, 200, { requirements: ['ASSET-012'] });
    const from = assets.x!.created!;
    const keyOf = (a: Asset) => Object.keys(assets).find((k) => assets[k]!.id === a.id);
    const order = async (sortField: string | undefined, sortOrder: string | undefined, requirements: string[]) => {
      const { res, page } = await listAssets(
        ctx,
        { lastupdated: from, sortField, sortOrder, size: 1000 },
        { requirements },
      );
      return { res, keys: page.results.map(keyOf).filter((k): k is string => k !== undefined) };
    };
    const bySize = [...specs].sort((p, q) => p.bytes.length - q.bytes.length).map((s) => s.key);
    if (new Set(specs.map((s) => s.bytes.length)).size !== specs.length)
      throw new Error(`the test images are not of distinct sizes: ${specs.map((s) => s.bytes.length).join(', ')}`);
    const expectations: [string | undefined, string | undefined, string[], string[]][] = [
      ['date', 'asc', ['x', 'y', 'z'], ['ASSET-011']],
      ['date', 'desc', ['z', 'y', 'x'], ['ASSET-011']],
      ['name', 'asc', ['y', 'z', 'x'], ['ASSET-011']],
      ['name', 'desc', ['x', 'z', 'y'], ['ASSET-011']],
      ['size', 'asc', bySize, ['ASSET-011']],
      ['size', 'desc', [...bySize].reverse(), ['ASSET-011']],
      ['ctf-no-such-field', 'asc', ['x', 'y', 'z'], ['ASSET-011']],
      ['date', 'ASC', ['x', 'y', 'z'], ['ASSET-014']],
      ['name', 'DESC', ['x', 'z', 'y'], ['ASSET-014']],
    ];
    for (const [field, dir, want, requirements] of expectations) {
      const { res, keys } = await order(field, dir, requirements);
      if (keys.join() !== want.join()) {
        throw new CheckFailure({
          message: `GET /assets?sortField=${field}&sortOrder=${dir} ordered the three uploads ${keys.join(', ')}`,
          received: keys,
          expected: want,
          requirements,
          exchanges: [res.exchange],
        });
      }
    }
    // modified, and its alias lastupdated: the never-modified assets are the least recently changed.
    for (const field of ['modified', 'lastupdated']) {
      for (const dir of ['asc', 'desc']) {
        const { res, keys } = await order(field, dir, ['ASSET-011', 'ASSET-012']);
        const y = keys.indexOf('y');
        const ok = keys.length === 3 && (dir === 'asc' ? y === 2 : y === 0);
        if (!ok) {
          throw new CheckFailure({
            message: `GET /assets?sortField=${field}&sortOrder=${dir} put the only modified upload (y) at position ${y + 1} of ${keys.join(', ')}`,
            received: keys,
            expected: dir === 'asc' ? 'y last (never-modified assets sort as least recently changed)' : 'y first',
            // In upload order: the field itself was not applied; otherwise the assets without modified are misplaced.
            requirements:
              keys.join() === (dir === 'asc' ? 'x,y,z' : 'z,y,x')
                ? ['ASSET-011']
                : keys.length === 3
                  ? ['ASSET-012']
                  : ['ASSET-011', 'ASSET-012'],
            exchanges: [res.exchange],
          });
        }
      }
    }
    ctx.verified(['ASSET-011', 'ASSET-012', 'ASSET-014']);
    // DEC-ASSET-006: newest first without sortOrder.
    const { res, keys } = await order('date', undefined, ['DEC-ASSET-006']);
    if (keys.join() !== 'z,y,x')
      throw new CheckFailure({
        message: 'GET /assets?sortField=date without sortOrder is not newest first',
        received: keys,
        expected: ['z', 'y', 'x'],
        requirements: ['DEC-ASSET-006'],
        exchanges: [res.exchange],
      });
  },
});
