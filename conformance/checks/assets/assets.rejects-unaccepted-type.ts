import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { multipart, postAsset } from '../../support/assets.ts';
import { writerToken } from '../../support/organisations.ts';

export default defineCheck({
  id: 'assets.rejects-unaccepted-type',
  title:
    'POST /assets with a MIME type that is not accepted (plain text named .jpg and sent as image/jpeg) answers 415',
  requirements: ['ERR-004', 'DEC-ASSET-010'],
  tags: ['assets', 'security'],
  needs: ['write'],
  writes: 'nothing (the upload is refused)',
  run: async (ctx) => {
    const res = await postAsset(ctx, Buffer.from(`${ctx.runId}: plain text, not an image\n`), {
      filename: `${ctx.tag('not-an-image')}.jpg`,
      contentType: 'image/jpeg',
    });
    if (res.status >= 200 && res.status < 300) {
      throw new CheckFailure({
        message: 'POST /assets accepted a text file named .jpg and sent as image/jpeg',
        received: res.status,
        expected: 415,
        pointer: 'status',
        requirements: ['ERR-004'],
        exchanges: [res.exchange],
      });
    }
    assertStatus(res, 415, { requirements: ['ERR-004'] });
    res.assertConforms(['ERR-004']);
    ctx.verified(['ERR-004']);

    // DEC-ASSET-010: not multipart is a 415; multipart without a file part a 400.
    const json = await ctx.http.post('/assets', {
      token: writerToken(ctx),
      json: { file: 'not multipart' },
      validate: 'defer',
    });
    assertStatus(json, 415, {
      requirements: ['DEC-ASSET-010'],
      message: `POST /assets with a JSON body answered ${json.status}`,
    });
    json.assertConforms(['DEC-ASSET-010']);
    const { body, contentType } = multipart([{ name: 'title', data: 'no file' }]);
    const noFile = await ctx.http.post('/assets', {
      token: writerToken(ctx),
      body,
      headers: { 'content-type': contentType },
      validate: 'defer',
    });
    assertStatus(noFile, 400, {
      requirements: ['DEC-ASSET-010'],
      message: `POST /assets without a file part answered ${noFile.status}`,
    });
    noFile.assertConforms(['DEC-ASSET-010']);
  },
});
