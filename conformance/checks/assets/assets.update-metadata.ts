import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { png, uploadAsset } from '../../support/assets.ts';
import type { Asset } from '../../support/assets.ts';
import { writerToken } from '../../support/organisations.ts';

export default defineCheck({
  id: 'assets.update-metadata',
  title: 'PUT /assets/{id} updates the metadata and sets modified (absent before)',
  requirements: ['ASSET-007', 'ASSET-001', 'DEC-ASSET-002', 'DEC-ASSET-007'],
  tags: ['assets'],
  needs: ['write'],
  writes: 'one tiny PNG asset (the interface has no asset delete)',
  run: async (ctx) => {
    const filename = `${ctx.tag('asset-meta')}.png`;
    const { asset } = await uploadAsset(ctx, await png(3, 2), {
      filename,
      contentType: 'image/png',
      requirements: ['ASSET-007'],
    });
    if (asset.modified !== undefined) ctx.note(`a fresh upload already has modified (${asset.modified})`);
    await ctx.sleep(5);
    const title = ctx.tag('new title');
    const description = `${ctx.runId} new description`;
    const res = await ctx.http.put(`/assets/${encodeURIComponent(asset.id)}`, {
      token: writerToken(ctx),
      json: { title, description },
      validate: 'defer',
    });
    assertStatus(res, 200, { requirements: ['ASSET-007'] });
    res.assertConforms(['ASSET-007']);
    const updated = res.body as Asset;
    if (updated.title !== title || updated.description !== description) {
      throw new CheckFailure({
        message: 'PUT /assets/{id} did not update the metadata',
        received: { title: updated.title, description: updated.description },
        expected: { title, description },
        requirements: ['ASSET-007'],
        exchanges: [res.exchange],
      });
    }
    const modified = updated.modified;
    if (
      typeof modified !== 'string' ||
      Number.isNaN(Date.parse(modified)) ||
      Date.parse(modified) < Date.parse(asset.created ?? '')
    ) {
      throw new CheckFailure({
        message: 'after a metadata update the asset has no modified timestamp (at or after created)',
        received: modified ?? '(absent)',
        expected: `a timestamp ≥ ${asset.created}`,
        pointer: '/modified',
        // The update itself took effect (checked above): only the timestamp is missing.
        requirements: ['ASSET-001'],
        exchanges: [res.exchange],
      });
    }
    ctx.verified(['ASSET-007', 'ASSET-001']);

    // DEC-ASSET-007: a full replacement of the editable fields; an absent filename is kept.
    const cleared = await ctx.http.put(`/assets/${encodeURIComponent(asset.id)}`, {
      token: writerToken(ctx),
      json: { description },
      validate: 'defer',
    });
    assertStatus(cleared, 200, { requirements: ['DEC-ASSET-007'] });
    cleared.assertConforms(['DEC-ASSET-007']);
    const after = cleared.body as Asset;
    if (after.title !== undefined || after.filename !== (asset.filename ?? filename)) {
      throw new CheckFailure({
        message: 'PUT without title must remove the title and keep the filename',
        received: { title: after.title, filename: after.filename },
        expected: { filename: asset.filename ?? filename },
        requirements: ['DEC-ASSET-007'],
        exchanges: [cleared.exchange],
      });
    }
    const unknown = await ctx.http.put(`/assets/${encodeURIComponent(asset.id)}`, {
      token: writerToken(ctx),
      json: { title, colour: 'red' },
      validate: 'defer',
    });
    assertStatus(unknown, 400, {
      requirements: ['DEC-ASSET-002'],
      message: `PUT /assets/{id} with an unknown member answered ${unknown.status}`,
    });
    unknown.assertConforms(['DEC-ASSET-002']);
  },
});
