import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { COLLECTIONS } from '../../support/collections.ts';
import { createItem, putItem, readItem } from '../../support/items.ts';
import type { CollectionPath, Ctx, Item } from '../../support/itemTypes.ts';
import type { Exchange } from '../../model/exchange.ts';

// The stamps must move on every update of every entity type, not only on an event's first one:
// each collection's item is updated twice.
const UPDATES = 2;

export default defineCheck({
  id: 'items.update-stamps',
  title:
    'Every update of an item of any collection moves lastupdated forward (the basis of sync) and keeps creationdate; PUT on the detail URL replaces the writable fields, so a field left out is removed',
  requirements: ['ITEM-005', 'ITEM-006', 'WRITE-002', 'DEC-ITEM-001'],
  tags: ['items', 'write'],
  needs: ['write'],
  writes: 'one item per collection, each updated twice (tagged with the run id)',
  run: async (ctx) => {
    for (const { path } of COLLECTIONS) await updateTwice(ctx, path);
    ctx.verified(['ITEM-005', 'ITEM-006', 'WRITE-002']);
  },
});

async function updateTwice(ctx: Ctx, collection: CollectionPath): Promise<void> {
  const events = collection === '/events';
  const created = await createItem(
    ctx,
    collection,
    { location: { address: { city: 'Amsterdam' } }, ...(events ? { performers: [{ label: 'Koor' }] } : {}) },
    { label: 'update' },
  );
  const { location: _dropped, ...rest } = created.body;
  const exchanges: Exchange[] = [created.created.exchange];
  let before = created.item;
  for (let update = 1; update <= UPDATES; update++) {
    const title = `${String(created.body.trcid)} update ${update}`;
    const body = {
      ...rest,
      trcItemDetails: [{ lang: 'nl', title }],
      ...(events ? { performers: [{ label: `Orkest ${update}` }] } : {}),
    };
    const put = await putItem(ctx, created, body);
    exchanges.push(put.exchange);
    if (put.status === 404 || put.status === 405)
      throw new CheckFailure({
        message: `PUT ${new URL(put.url).pathname} answered ${put.status} on the update path in force`,
        received: put.status,
        expected: 200,
        requirements: ['DEC-ITEM-001'],
        exchanges: [put.exchange],
      });
    assertStatus(put, 200, { requirements: ['WRITE-002'] });
    put.assertConforms(['WRITE-002']);
    const { res, item } = await readItem(ctx, created.path, created.token);
    exchanges.push(res.exchange);
    assertStatus(res, 200, { requirements: ['WRITE-002'] });
    res.assertConforms(['WRITE-002']);
    const fail = (message: string, received: unknown, expected: unknown, requirements: string[], pointer: string) => {
      throw new CheckFailure({
        message: `${created.path}, update ${update} of ${UPDATES}: ${message}`,
        received,
        expected,
        pointer,
        requirements,
        exchanges,
      });
    };
    const details = item!.trcItemDetails as { title?: string }[] | undefined;
    if (!details?.some((d) => d.title === title))
      fail('the PUT did not change the title', details, [{ lang: 'nl', title }], ['WRITE-002'], '/trcItemDetails');
    if (events && (item!.performers as { label?: string }[] | undefined)?.[0]?.label !== `Orkest ${update}`)
      fail(
        'the PUT did not change performers',
        item!.performers,
        [{ label: `Orkest ${update}` }],
        ['WRITE-002'],
        '/performers',
      );
    if (!(Date.parse(String(item!.lastupdated)) > Date.parse(String(before.lastupdated))))
      fail(
        `lastupdated did not move forward with the update`,
        item!.lastupdated,
        `later than ${String(before.lastupdated)}`,
        ['ITEM-006'],
        '/lastupdated',
      );
    if (Date.parse(String(item!.creationdate)) !== Date.parse(String(created.item.creationdate)))
      fail(
        'creationdate changed with the update',
        item!.creationdate,
        created.item.creationdate,
        ['ITEM-005'],
        '/creationdate',
      );
    if (item!.location !== undefined)
      fail(
        'a PUT without location kept the location (a PUT replaces the writable fields)',
        item!.location,
        '(absent)',
        ['DEC-ITEM-001'],
        '/location',
      );
    before = item as Item;
  }
}
