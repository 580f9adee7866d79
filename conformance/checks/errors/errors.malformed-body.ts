import { defineCheck } from '../../model/check.ts';
import { assertStatus } from '../../support/assert.ts';
import { writerToken } from '../../support/organisations.ts';

export default defineCheck({
  id: 'errors.malformed-body',
  title: 'An item body that is not valid JSON, or that is sent with another Content-Type, is a 400 in the error shape',
  requirements: ['DEC-ERR-003', 'DEC-ERR-001'],
  tags: ['errors', 'decision'],
  needs: ['write'],
  writes: 'nothing on a conforming target (both requests must be refused)',
  run: async (ctx) => {
    const token = writerToken(ctx);
    const tag = ctx.tag('malformed');
    const cases = [
      { text: `{"trcid": "${tag}", "trcItemDetails": [`, contentType: 'application/json', what: 'truncated JSON' },
      {
        text: JSON.stringify({ trcid: ctx.tag('malformed'), trcItemDetails: [{ lang: 'nl', title: tag }] }),
        contentType: 'text/plain',
        what: 'JSON sent as text/plain',
      },
    ];
    for (const c of cases) {
      const res = await ctx.http.post('/events', {
        token,
        body: c.text,
        headers: { 'content-type': c.contentType },
        validate: 'defer',
      });
      const id = (res.body as { id?: unknown } | undefined)?.id;
      if (res.status < 300 && typeof id === 'string') ctx.cleanup.softDelete(`/events/${id}`, token);
      assertStatus(res, 400, {
        requirements: ['DEC-ERR-003'],
        message: `POST /events with ${c.what} answered ${res.status}, expected 400`,
      });
      res.assertConforms(['DEC-ERR-001']);
    }
  },
});
