import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { filePath, imageInfo, png, uploadAsset } from '../../support/assets.ts';

/** A file download accepts any media type (the suite's default Accept is JSON). */
const ANY = { accept: '*/*' };

export default defineCheck({
  id: 'assets.upload',
  title:
    'POST /assets uploads an image (id, created); the file is served at {base_url}/assets/<id>/<filename>, resized with w, h and mode',
  requirements: [
    'ASSET-006',
    'ASSET-001',
    'ASSET-003',
    'ASSET-005',
    'DEC-ASSET-001',
    'DEC-ASSET-003',
    'DEC-ASSET-005',
    'DEC-ASSET-008',
  ],
  tags: ['assets'],
  needs: ['write'],
  writes: 'one 40×30 PNG asset (the interface has no asset delete)',
  run: async (ctx) => {
    const bytes = await png(40, 30);
    const filename = `${ctx.tag('asset')}.png`;
    const { res, asset } = await uploadAsset(ctx, bytes, {
      filename,
      contentType: 'image/png',
      title: ctx.tag('asset title'),
      requirements: ['ASSET-006'],
    });
    if (typeof asset.created !== 'string' || Number.isNaN(Date.parse(asset.created))) {
      throw new CheckFailure({
        message: 'the uploaded asset has no created timestamp',
        received: asset.created ?? '(absent)',
        expected: 'created',
        pointer: '/created',
        requirements: ['ASSET-001'],
        exchanges: [res.exchange],
      });
    }
    // Served at {base_url}/assets/<id>/<filename>.
    const path = filePath(asset, asset.filename ?? filename);
    if (typeof asset.url === 'string' && !new URL(asset.url).pathname.endsWith(path)) {
      throw new CheckFailure({
        message: 'the asset url is not {base_url}/assets/<id>/<filename>',
        received: asset.url,
        expected: `…${path}`,
        pointer: '/url',
        requirements: ['ASSET-003'],
        exchanges: [res.exchange],
      });
    }
    const file = await ctx.http.get(path, { headers: ANY });
    assertStatus(file, 200, { requirements: ['ASSET-003', 'ASSET-005'] });
    if (!file.bytes.equals(bytes)) {
      throw new CheckFailure({
        message: `GET ${path} does not return the uploaded bytes`,
        received: `${file.bytes.length} bytes (${file.headers['content-type']})`,
        expected: `the ${bytes.length} bytes uploaded`,
        requirements: ['ASSET-003', 'ASSET-005'],
        exchanges: [file.exchange],
      });
    }
    // Resize parameters are accepted and give an image.
    const variants: { query: Record<string, string | number>; size: [number, number] }[] = [
      { query: { w: 20 }, size: [20, 15] },
      { query: { w: 10, h: 10, mode: 'cover' }, size: [10, 10] },
      { query: { w: 10, h: 10, mode: 'stretch' }, size: [10, 10] },
      { query: { w: 10, h: 10, mode: 'fit' }, size: [10, 8] },
      { query: { w: 400 }, size: [40, 30] },
    ];
    const got: {
      query: Record<string, string | number>;
      size: [number, number];
      info: Awaited<ReturnType<typeof imageInfo>>;
      res: typeof file;
    }[] = [];
    for (const v of variants) {
      const r = await ctx.http.get(path, { query: v.query, headers: ANY });
      assertStatus(r, 200, {
        requirements: ['ASSET-005'],
        message: `GET ${path}?${new URLSearchParams(Object.entries(v.query).map(([k, x]): [string, string] => [k, String(x)]))} answered ${r.status}`,
      });
      const info = await imageInfo(r.bytes);
      if (!info)
        throw new CheckFailure({
          message: `GET ${path} with ${JSON.stringify(v.query)} did not return an image`,
          received: r.headers['content-type'],
          expected: 'an image',
          requirements: ['ASSET-005'],
          exchanges: [r.exchange],
        });
      got.push({ ...v, info, res: r });
    }
    // The exact sizes are a decision (below); that a smaller w or h gives a smaller image is not.
    const shrinking = got.filter((g) => g.size[0] < 40 || g.size[1] < 30);
    if (shrinking.every((g) => g.info!.width === 40 && g.info!.height === 30))
      throw new CheckFailure({
        message: `GET ${path} ignores w, h and mode: every resize gave the original 40×30`,
        received: shrinking.map((g) => `${JSON.stringify(g.query)}: 40×30`),
        expected: 'smaller images',
        requirements: ['ASSET-005'],
        exchanges: shrinking.map((g) => g.res.exchange),
      });
    ctx.verified(['ASSET-006', 'ASSET-001', 'ASSET-003', 'ASSET-005']);

    // Decisions: 201, the sizes of each mode (never enlarged), and any file name serves the file.
    assertStatus(res, 201, { requirements: ['DEC-ASSET-001'] });
    for (const g of got) {
      if (g.info!.width !== g.size[0] || g.info!.height !== g.size[1]) {
        throw new CheckFailure({
          message: `resizing 40×30 with ${JSON.stringify(g.query)} gave ${g.info!.width}×${g.info!.height}`,
          received: `${g.info!.width}×${g.info!.height}`,
          expected: `${g.size[0]}×${g.size[1]}`,
          requirements: ['DEC-ASSET-003'],
          exchanges: [g.res.exchange],
        });
      }
    }
    const other = await ctx.http.get(filePath(asset, 'any-other-name.png'), { headers: ANY, validate: 'defer' });
    if (other.status !== 200 || !other.bytes.equals(bytes)) {
      throw new CheckFailure({
        message: `GET /assets/${asset.id}/any-other-name.png answered ${other.status}; the filename segment is informational`,
        received: other.status,
        expected: '200 with the file',
        requirements: ['DEC-ASSET-005'],
        exchanges: [other.exchange],
      });
    }
    other.assertConforms(['DEC-ASSET-005']);

    // DEC-ASSET-008: cacheable with a strong ETag per variant, 304 on If-None-Match, the format kept.
    const etag = file.headers.etag;
    const resized = got[0]!.res;
    if (
      !etag ||
      etag.startsWith('W/') ||
      !/private/.test(file.headers['cache-control'] ?? '') ||
      !/max-age=86400/.test(file.headers['cache-control'] ?? '') ||
      resized.headers.etag === etag ||
      got[0]!.info!.format !== 'png'
    ) {
      throw new CheckFailure({
        message: 'the file answers are not cacheable as decided',
        received: {
          etag: etag ?? '(absent)',
          'cache-control': file.headers['cache-control'] ?? '(absent)',
          'resized etag': resized.headers.etag ?? '(absent)',
          'resized format': got[0]!.info!.format,
        },
        expected: {
          etag: 'a strong ETag, another one per variant',
          'cache-control': 'private, max-age=86400',
          'resized format': 'png',
        },
        requirements: ['DEC-ASSET-008'],
        exchanges: [file.exchange, resized.exchange],
      });
    }
    const again = await ctx.http.get(path, { headers: { ...ANY, 'if-none-match': etag }, validate: 'defer' });
    if (again.status !== 304)
      throw new CheckFailure({
        message: `GET ${path} with If-None-Match of its ETag answered ${again.status}`,
        received: again.status,
        expected: 304,
        pointer: 'status',
        requirements: ['DEC-ASSET-008'],
        exchanges: [again.exchange],
      });
    again.assertConforms(['DEC-ASSET-008']);
  },
});
