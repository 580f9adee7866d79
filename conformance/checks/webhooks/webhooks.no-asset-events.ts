import { randomUUID } from 'node:crypto';
import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { assertStatus } from '../../support/assert.ts';
import { png, uploadAsset } from '../../support/assets.ts';
import { createItem } from '../../support/items.ts';
import { writerToken } from '../../support/organisations.ts';
import {
  callbackId,
  callbackItems,
  deliveryFailure,
  disposing,
  hookToken,
  timing,
  waitForCallback,
} from '../../support/webhooks.ts';

export default defineCheck({
  id: 'webhooks.no-asset-events',
  title: 'Uploading an asset and changing its metadata produce no webhook; an item change right after does',
  requirements: ['HOOK-009', 'ASSET-015'],
  tags: ['webhooks', 'assets'],
  needs: ['webhook'],
  writes:
    'a token with a callBackUrl (deleted at once), one tiny PNG asset (the interface has no asset delete) and one event (soft-deleted)',
  dependsOn: ['webhooks.delivery-signed'],
  run: async (ctx) => {
    const hook = await hookToken(ctx, 'assets');
    await disposing([hook], async () => {
      const { asset } = await uploadAsset(ctx, await png(2, 2), {
        filename: `${ctx.tag('hook-asset')}.png`,
        contentType: 'image/png',
        title: ctx.tag('hook asset'),
      });
      const put = await ctx.http.put(`/assets/${encodeURIComponent(asset.id)}`, {
        token: writerToken(ctx),
        json: { title: `${ctx.runId} changed`, description: randomUUID() },
      });
      assertStatus(put, 200, { requirements: ['HOOK-009'], message: `PUT /assets/${asset.id} answered ${put.status}` });
      // A control change: the token's deliveries do work, and arrive after anything the asset caused.
      const control = await createItem(
        ctx,
        '/events',
        { wfstatus: WORKFLOW_STATUS.approved },
        { label: 'hook-asset-control' },
      );
      const expected = callbackId(control.id, '/events', 'UPDATED');
      await waitForCallback(ctx, hook, expected);
      await hook.endpoint.expectNone(timing(ctx).quietMs, () => false);
      const stray = hook.endpoint.deliveries.find(
        (d) => callbackItems(d).some((i) => i.id !== expected) || callbackItems(d).length === 0,
      );
      if (stray) {
        throw deliveryFailure(
          {
            message: `a webhook arrived for something other than the item changed (the asset ${asset.id} was uploaded and changed meanwhile)`,
            received: callbackItems(stray).map((i) => i.id),
            expected: [expected],
            requirements: ['HOOK-009', 'ASSET-015'],
          },
          [stray],
        );
      }
    });
  },
});
