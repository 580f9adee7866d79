import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { COLLECTIONS } from '../../support/collections.ts';
import { itemProblemRequirements, readItem } from '../../support/items.ts';
import { minimalItems } from '../../support/sharedItems.ts';
import { assertStatus } from '../../support/assert.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SKEW_MS = 10 * 60_000;

export default defineCheck({
  id: 'items.create-read-back',
  title:
    'POST on each collection creates an item from a draft holding only a title; a detail read returns it with id (UUID), trcid, entitytype, creationdate and lastupdated set by the server',
  requirements: [
    'WRITE-001',
    'ITEM-021',
    'DETAIL-001',
    'ITEM-001',
    'ITEM-002',
    'ITEM-003',
    'ITEM-004',
    'ITEM-005',
    'ITEM-006',
  ],
  tags: ['items', 'write'],
  needs: ['write'],
  writes: 'one item per collection (title only, tagged with the run id)',
  run: async (ctx) => {
    for (const created of await minimalItems(ctx)) {
      const { entitytype } = COLLECTIONS.find((c) => c.path === created.collection)!;
      const { res, item } = await readItem(ctx, created.path, created.token);
      assertStatus(res, 200, { requirements: ['DETAIL-001'] });
      res.assertConforms(
        itemProblemRequirements(ctx, res, ['DETAIL-001', 'ITEM-002', 'ITEM-003', 'ITEM-004', 'ITEM-005']),
      );
      const fail = (
        message: string,
        received: unknown,
        expected: unknown,
        requirements: string[],
        pointer?: string,
      ) => {
        throw new CheckFailure({
          message: `${created.path}: ${message}`,
          received,
          expected,
          pointer,
          requirements,
          exchanges: [res.exchange],
        });
      };
      if (item!.id !== created.id)
        fail('the detail read returned another item', item!.id, created.id, ['DETAIL-001'], '/id');
      if (typeof item!.id !== 'string' || !UUID.test(item!.id))
        fail('id is not a UUID', item!.id, 'a UUID', ['ITEM-002'], '/id');
      if (typeof item!.trcid !== 'string' || item!.trcid === '')
        fail(
          'trcid is missing (it was not sent: the server must assign one)',
          item!.trcid,
          'a trcid',
          ['ITEM-003', 'ITEM-021'],
          '/trcid',
        );
      if (item!.entitytype !== entitytype)
        fail(
          `entitytype on ${created.collection} is not ${entitytype}`,
          item!.entitytype,
          entitytype,
          ['ITEM-004', 'ITEM-001'],
          '/entitytype',
        );
      const now = (res.date ?? new Date()).getTime();
      for (const field of ['creationdate', 'lastupdated'] as const) {
        const at = Date.parse(String(item![field]));
        if (Number.isNaN(at) || Math.abs(at - now) > SKEW_MS)
          fail(
            `${field} is not the time of the write (the server's Date is ${new Date(now).toISOString()})`,
            item![field],
            "a timestamp within 10 minutes of the server's Date",
            [field === 'creationdate' ? 'ITEM-005' : 'ITEM-006'],
            `/${field}`,
          );
      }
    }
  },
});
