import { isDeepStrictEqual } from 'node:util';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { minimalItems } from '../../support/sharedItems.ts';
import { readItem } from '../../support/items.ts';

export default defineCheck({
  id: 'items.create-answer',
  title:
    'POST answers 201 with a Location header naming the detail URL and the stored item exactly as a detail read returns it',
  requirements: ['DEC-ITEM-002'],
  tags: ['items', 'write', 'decision'],
  needs: ['write'],
  writes: 'shares the minimal items of items.create-read-back',
  run: async (ctx) => {
    for (const created of await minimalItems(ctx)) {
      const answer = created.created;
      const fail = (message: string, received: unknown, expected: unknown, pointer?: string) => {
        throw new CheckFailure({
          message: `POST ${created.collection}: ${message}`,
          received,
          expected,
          pointer,
          exchanges: [answer.exchange],
        });
      };
      if (answer.status !== 201) fail(`answered ${answer.status}`, answer.status, 201, 'status');
      const location = answer.headers.location;
      // Compared by path: a gateway or proxy before the target may change the origin.
      const detailPath = new URL(ctx.http.url(created.path)).pathname;
      if (!location || new URL(location, answer.url).pathname !== detailPath)
        fail(
          'the Location header does not name the detail URL',
          location ?? '(absent)',
          `…${detailPath}`,
          'header/Location',
        );
      const { item } = await readItem(ctx, created.path, created.token);
      // lastupdated and creationdate are the same write; nothing changed in between.
      if (!isDeepStrictEqual(answer.body, item))
        fail('the answer body differs from the detail read of the same item', answer.body, item);
    }
  },
});
