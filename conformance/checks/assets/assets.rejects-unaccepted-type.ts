import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { postAsset } from '../../support/assets.ts';

export default defineCheck({
  id: 'assets.rejects-unaccepted-type',
  title: 'POST /assets with a MIME type that is not accepted (plain text named .jpg and sent as image/jpeg) answers 415',
  requirements: ['ERR-004'],
  tags: ['assets', 'security'],
  needs: ['write'],
  writes: 'nothing (the upload is refused)',
  run: async (ctx) => {
    const res = await postAsset(ctx, Buffer.from(`${ctx.runId}: plain text, not an image\n`), { filename: `${ctx.tag('not-an-image')}.jpg`, contentType: 'image/jpeg' });
    if (res.status >= 200 && res.status < 300) {
      throw new CheckFailure({ message: 'POST /assets accepted a text file named .jpg and sent as image/jpeg', received: res.status, expected: 415, pointer: 'status', exchanges: [res.exchange] });
    }
    assertStatus(res, 415);
    res.assertConforms();
  },
});
