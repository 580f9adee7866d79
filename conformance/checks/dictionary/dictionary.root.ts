import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';

export default defineCheck({
  id: 'dictionary.root',
  title:
    'GET /dictionary, the root dictionary collection, answers 200 JSON; it lists the dictionary endpoints with absolute hrefs that answer 200',
  requirements: ['DICT-006', 'API-001', 'DEC-DICT-001', 'DEC-DICT-012'],
  tags: ['dictionary'],
  needs: ['consumer'],
  run: async (ctx) => {
    const res = await ctx.http.get('/dictionary', { validate: 'defer' });
    assertStatus(res, 200, { requirements: ['DICT-006'] });
    if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(res.headers['content-type'] ?? '') || res.body === undefined) {
      throw new CheckFailure({
        message: 'GET /dictionary did not answer JSON',
        received: res.headers['content-type'] ?? '(no Content-Type)',
        expected: 'application/json',
        pointer: 'header/Content-Type',
        requirements: ['API-001'],
        exchanges: [res.exchange],
      });
    }
    ctx.verified(['DICT-006', 'API-001']);
    res.assertConforms(['DEC-DICT-001']);
    // Its body is not shown: another shape is a deviation from DEC-DICT-001, already reported.
    const resources = (res.body as { resources?: unknown }).resources;
    if (!Array.isArray(resources)) return;
    for (const { name, href } of resources as { name: string; href: string }[]) {
      if (!/^https?:\/\//.test(href))
        throw new CheckFailure({
          message: `the href of ${name} is not absolute`,
          received: href,
          expected: 'an absolute URL',
          requirements: ['DEC-DICT-012'],
          exchanges: [res.exchange],
        });
      // The token goes only to the target's own origin.
      if (new URL(href).origin !== new URL(ctx.config.baseUrl!).origin) {
        ctx.note(`${name}: ${href} is on another origin than the base URL; not followed`);
        continue;
      }
      const target = await ctx.http.get(href, { validate: 'defer' });
      assertStatus(target, 200, {
        requirements: ['DEC-DICT-001'],
        message: `${name} (${href}) answered ${target.status}`,
      });
      target.assertConforms(['DEC-DICT-001']);
    }
  },
});
