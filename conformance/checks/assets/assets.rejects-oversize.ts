import { randomBytes } from 'node:crypto';
import { DEFAULT_ASSET_OVERSIZE_BYTES } from '../../config/config.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import type { Exchange } from '../../model/exchange.ts';
import type { CheckContext } from '../../engine/runtime/context.ts';
import { png, postAsset, postAssetRaw } from '../../support/assets.ts';
import type { UploadOptions } from '../../support/assets.ts';

interface Answer {
  status: number;
  exchange?: Exchange;
  assertConforms(requirements?: readonly string[]): void;
}

/** The target answered before the body was sent and closed the connection: read that answer another way. */
async function readEarlyAnswer(
  ctx: CheckContext,
  bytes: Buffer,
  options: UploadOptions,
  size: number,
): Promise<Answer> {
  const raw = await postAssetRaw(ctx, bytes, options);
  ctx.note(
    `the target answered ${raw.status} before the ${size}-byte body was sent and closed the connection (read without the suite's HTTP client)`,
  );
  const problems = ctx.spec.validator.validate({
    method: 'POST',
    path: '/assets',
    status: raw.status,
    headers: raw.headers,
    body: raw.text,
  });
  return {
    status: raw.status,
    assertConforms(requirements) {
      const p = problems[0];
      if (p)
        throw new CheckFailure({
          kind: 'spec',
          message: `POST /assets → ${raw.status} does not conform to the spec: ${p.message}`,
          received: p.received,
          expected: p.expected,
          pointer: p.pointer,
          requirements,
        });
    },
  };
}

export default defineCheck({
  id: 'assets.rejects-oversize',
  title:
    "POST /assets of a file over the limit answers 413 (the limit is the target's; --asset-oversize, default 21 MiB, above the decided 20 MiB)",
  requirements: ['DEC-ASSET-001', 'ERR-003'],
  tags: ['assets', 'security'],
  needs: ['write'],
  writes: 'nothing when refused; a large asset if the target accepts it (no asset delete: say so)',
  run: async (ctx) => {
    const size = ctx.config.assetOversizeBytes ?? DEFAULT_ASSET_OVERSIZE_BYTES;
    if (size === 0) ctx.skip("--asset-oversize 0: the target's upload limit is not known");
    // A valid PNG head and random filler: an accepted type, refused for its size only.
    const head = await png(2, 2);
    const bytes = Buffer.concat([head, randomBytes(Math.max(0, size - head.length))]);
    const options = { filename: `${ctx.tag('oversize')}.png`, contentType: 'image/png', timeoutMs: 60_000 };
    const first = await postAsset(ctx, bytes, options).catch((error: unknown) => {
      if (!(error instanceof CheckFailure) || !/EPIPE|ECONNRESET|UND_ERR_SOCKET/.test(String(error.received)))
        throw error;
      return undefined;
    });
    const res: Answer = first ?? (await readEarlyAnswer(ctx, bytes, options, size));
    if (res.status >= 200 && res.status < 300) {
      res.assertConforms([]);
      ctx.note(`the target accepted ${size} bytes: its limit is higher (the asset stays, there is no asset delete)`);
      ctx.unverified(
        ['ERR-003'],
        `an upload of ${size} bytes was accepted: the target's limit is above it; pass --asset-oversize with a size above the limit`,
      );
      throw new CheckFailure({
        message: `POST /assets accepted ${size} bytes; the decided limit is 20 MiB`,
        received: res.status,
        expected: 413,
        pointer: 'status',
        requirements: ['DEC-ASSET-001'],
        exchanges: res.exchange ? [res.exchange] : [],
      });
    }
    if (res.status !== 413) {
      throw new CheckFailure({
        message: `POST /assets of ${size} bytes (over the limit) answered ${res.status}`,
        received: res.status,
        expected: 413,
        pointer: 'status',
        requirements: ['ERR-003'],
        exchanges: res.exchange ? [res.exchange] : [],
      });
    }
    res.assertConforms(['ERR-003']);
  },
});
