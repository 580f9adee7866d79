import { randomBytes } from 'node:crypto';
import { DEFAULT_ASSET_OVERSIZE_BYTES } from '../../config/config.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { png, postAsset } from '../../support/assets.ts';

export default defineCheck({
  id: 'assets.rejects-oversize',
  title: 'POST /assets of a file over the limit answers 413 (the limit is the target\'s; --asset-oversize, default 21 MiB, above the decided 20 MiB)',
  requirements: ['DEC-ASSET-001', 'ERR-003'],
  tags: ['assets', 'security'],
  needs: ['write'],
  writes: 'nothing when refused; a large asset if the target accepts it (no asset delete: say so)',
  run: async (ctx) => {
    const size = ctx.config.assetOversizeBytes ?? DEFAULT_ASSET_OVERSIZE_BYTES;
    if (size === 0) ctx.skip('--asset-oversize 0: the target\'s upload limit is not known');
    // A valid PNG head and random filler: an accepted type, refused for its size only.
    const head = await png(2, 2);
    const bytes = Buffer.concat([head, randomBytes(Math.max(0, size - head.length))]);
    const res = await postAsset(ctx, bytes, { filename: `${ctx.tag('oversize')}.png`, contentType: 'image/png', timeoutMs: 60_000 }).catch((error: unknown) => {
      // A target may answer 413 and close the connection before the whole upload was sent.
      if (error instanceof CheckFailure) throw new CheckFailure({ message: `${error.message}: the target closed the connection during a ${size}-byte upload without an answer the suite could read`, received: error.received, expected: '413', kind: 'error', requirements: ['ERR-003'] });
      throw error;
    });
    if (res.status >= 200 && res.status < 300) {
      ctx.note(`the target accepted ${size} bytes: its limit is higher (the asset stays, there is no asset delete)`);
      ctx.unverified(['ERR-003'], `an upload of ${size} bytes was accepted: the target's limit is above it; pass --asset-oversize with a size above the limit`);
      throw new CheckFailure({ message: `POST /assets accepted ${size} bytes; the decided limit is 20 MiB`, received: res.status, expected: 413, pointer: 'status', requirements: ['DEC-ASSET-001'], exchanges: [res.exchange] });
    }
    if (res.status !== 413) {
      throw new CheckFailure({ message: `POST /assets of ${size} bytes (over the limit) answered ${res.status}`, received: res.status, expected: 413, pointer: 'status', requirements: ['ERR-003'], exchanges: [res.exchange] });
    }
    res.assertConforms(['ERR-003']);
  },
});
