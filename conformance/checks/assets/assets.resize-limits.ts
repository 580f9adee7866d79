import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { blankPng, filePath, uploadAsset } from '../../support/assets.ts';

export default defineCheck({
  id: 'assets.resize-limits',
  title: 'An image above 100 megapixels is stored and served as it is, but a resize of it is refused with 422',
  requirements: ['DEC-ASSET-009'],
  tags: ['assets', 'security'],
  needs: ['write'],
  writes: 'one blank 10001×10001 PNG of a few kilobytes (the interface has no asset delete)',
  run: async (ctx) => {
    const bytes = blankPng(10_001, 10_001);
    const { asset } = await uploadAsset(ctx, bytes, { filename: `${ctx.tag('huge')}.png`, contentType: 'image/png' });
    const path = filePath(asset);
    const original = await ctx.http.get(path, { headers: { accept: '*/*' }, validate: 'defer' });
    if (original.status !== 200 || !original.bytes.equals(bytes)) {
      throw new CheckFailure({
        message: `GET ${path} without w or h answered ${original.status}; the original is served whatever its size`,
        received: original.status,
        expected: '200 with the file',
        exchanges: [original.exchange],
      });
    }
    original.assertConforms();
    const resized = await ctx.http.get(path, { query: { w: 100 }, headers: { accept: '*/*' }, validate: 'defer' });
    assertStatus(resized, 422, { message: `GET ${path}?w=100 of a 100-megapixel image answered ${resized.status}` });
    resized.assertConforms();
  },
});
