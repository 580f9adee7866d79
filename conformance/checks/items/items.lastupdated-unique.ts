import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { catalogue } from '../../support/sharedItems.ts';

const FORMAT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export default defineCheck({
  id: 'items.lastupdated-unique',
  title:
    'lastupdated is UTC with millisecond precision (…T08:30:00.123Z) and strictly increasing in write order, even for items written back to back',
  requirements: ['DEC-ITEM-009'],
  tags: ['items', 'sync', 'decision'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue (nine event groups written back to back, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    let previous: string | undefined;
    for (const entry of cat.entries) {
      const stamp = String(entry.item.lastupdated);
      if (!FORMAT.test(stamp))
        throw new CheckFailure({
          message: `${entry.trcid}: lastupdated is not UTC with three fraction digits and Z`,
          received: stamp,
          expected: 'YYYY-MM-DDTHH:MM:SS.mmmZ',
          pointer: '/lastupdated',
          exchanges: [entry.created.exchange],
        });
      if (previous !== undefined && !(Date.parse(stamp) > Date.parse(previous))) {
        throw new CheckFailure({
          message: `${entry.trcid}, written after another item, has a lastupdated that is not later`,
          received: stamp,
          expected: `later than ${previous}`,
          pointer: '/lastupdated',
          exchanges: [entry.created.exchange],
        });
      }
      previous = stamp;
    }
  },
});
