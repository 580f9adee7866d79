import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { variantsOf } from '../../model/variants.ts';
import type { HttpResponse } from '../../http/httpClient.ts';
import { assertStatus } from '../../support/assert.ts';
import { createItem, readItem } from '../../support/items.ts';

// Optimistic concurrency on items (DEC-ITEM-031): a strong ETag on detail reads and write
// answers, If-Match honoured on PUT and DELETE (412, nothing changed), If-None-Match on detail
// reads (304). The interface shows no entity tags: a target without them differs from our
// decision only, reported apart, never a failure of the run.

const DECISION = ['DEC-ITEM-031'];
const title = (item: unknown) =>
  (item as { trcItemDetails?: Array<{ title?: string }> } | undefined)?.trcItemDetails?.[0]?.title;

export default defineCheck({
  id: 'items.conditional-writes',
  title:
    'A detail read and a write answer carry a strong ETag; If-None-Match with it is a 304; a PUT or DELETE whose If-Match is not the current tag is a 412 that changes nothing, one with it writes',
  requirements: DECISION,
  tags: ['items', 'write', 'decision'],
  needs: ['write'],
  writes: 'one event, replaced once and soft-deleted (tagged with the run id)',
  run: async (ctx) => {
    if (variantsOf(ctx).updatePath !== 'detail') {
      ctx.skip('the target takes updates on the collection, not the detail URL, where this check sends If-Match');
    }
    const event = await createItem(ctx, '/events', {}, { label: 'etag' });
    const fail = (message: string, received: unknown, expected: unknown, res: HttpResponse, pointer?: string) => {
      throw new CheckFailure({
        message,
        received,
        expected,
        pointer,
        requirements: DECISION,
        exchanges: [res.exchange],
      });
    };
    const strongTag = (res: HttpResponse, what: string): string => {
      const etag = res.headers.etag;
      if (etag === undefined || !/^"[\x21\x23-\x7e]*"$/.test(etag))
        fail(
          `${what} carries no strong ETag`,
          etag ?? '(no ETag header)',
          'a strong entity tag, "…"',
          res,
          'headers/etag',
        );
      return etag!;
    };

    const { res: read } = await readItem(ctx, event.path, event.token);
    assertStatus(read, 200, { requirements: DECISION });
    const tag = strongTag(read, `GET ${event.path}`);

    const notModified = await ctx.http.get(event.path, {
      token: event.token,
      headers: { 'if-none-match': tag },
      validate: 'defer',
    });
    if (notModified.status !== 304 || notModified.bytes.length > 0)
      fail(
        'If-None-Match with the current ETag did not answer 304 without a body',
        notModified.status,
        304,
        notModified,
        'status',
      );
    notModified.assertConforms(DECISION);

    const put = (ifMatch: string, change: string) =>
      ctx.http.put(event.path, {
        token: event.token,
        json: {
          ...event.body,
          trcItemDetails: [{ lang: 'nl', title: `${title(event.body) ?? event.trcid} ${change}` }],
        },
        headers: { 'if-match': ifMatch },
        validate: 'defer',
      });
    const refused = await put('"conformance-not-the-tag"', 'overwritten');
    if (refused.status !== 412)
      fail('a PUT whose If-Match is not the current ETag was not refused', refused.status, 412, refused, 'status');
    refused.assertConforms(DECISION);
    const unchanged = await readItem(ctx, event.path, event.token);
    if (title(unchanged.item) !== title(read.body))
      fail(
        'a PUT refused with 412 changed the item',
        title(unchanged.item),
        title(read.body),
        unchanged.res,
        '/trcItemDetails/0/title',
      );

    const written = await put(tag, 'changed');
    assertStatus(written, 200, {
      requirements: DECISION,
      message: `a PUT with the current ETag in If-Match answered ${written.status}`,
    });
    written.assertConforms(DECISION);
    const next = strongTag(written, `PUT ${event.path}`);
    if (next === tag)
      fail('the ETag did not change with the write', next, `a tag other than ${tag}`, written, 'headers/etag');

    const stale = await put(tag, 'lost update');
    if (stale.status !== 412)
      fail('a PUT with the ETag from before the last write was not refused', stale.status, 412, stale, 'status');
    stale.assertConforms(DECISION);
    const del = await ctx.http.delete(event.path, {
      token: event.token,
      headers: { 'if-match': tag },
      validate: 'defer',
    });
    if (del.status !== 412) fail('a DELETE with a stale If-Match was not refused', del.status, 412, del, 'status');
    del.assertConforms(DECISION);
    const after = await readItem(ctx, event.path, event.token);
    assertStatus(after.res, 200, {
      requirements: DECISION,
      message: 'the item is gone after a DELETE refused with 412',
    });
    if (strongTag(after.res, `GET ${event.path}`) !== next)
      fail(
        'a detail read after the write does not carry the tag the write answered',
        after.res.headers.etag,
        next,
        after.res,
        'headers/etag',
      );
  },
});
