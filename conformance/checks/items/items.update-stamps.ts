import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { createItem, putItem, readItem } from '../../support/items.ts';

export default defineCheck({
  id: 'items.update-stamps',
  title:
    'An update moves lastupdated forward (the basis of sync) and keeps creationdate; PUT on the detail URL replaces the writable fields, so a field left out is removed',
  requirements: ['ITEM-005', 'ITEM-006', 'WRITE-002', 'DEC-ITEM-001'],
  tags: ['items', 'write'],
  needs: ['write'],
  writes: 'one event, updated once (tagged with the run id)',
  run: async (ctx) => {
    const event = await createItem(
      ctx,
      '/events',
      { location: { address: { city: 'Amsterdam' } }, performers: [{ label: 'Koor' }] },
      { label: 'update' },
    );
    const { location: _dropped, ...rest } = event.body;
    const put = await putItem(ctx, event, { ...rest, performers: [{ label: 'Orkest' }] });
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
    const { res, item } = await readItem(ctx, event.path, event.token);
    assertStatus(res, 200, { requirements: ['WRITE-002'] });
    res.assertConforms(['WRITE-002']);
    const fail = (message: string, received: unknown, expected: unknown, requirements: string[], pointer: string) => {
      throw new CheckFailure({
        message: `${event.path}: ${message}`,
        received,
        expected,
        pointer,
        requirements,
        exchanges: [event.created.exchange, put.exchange, res.exchange],
      });
    };
    if ((item!.performers as { label?: string }[] | undefined)?.[0]?.label !== 'Orkest')
      fail('the PUT did not change performers', item!.performers, [{ label: 'Orkest' }], ['WRITE-002'], '/performers');
    if (!(Date.parse(String(item!.lastupdated)) > Date.parse(String(event.item.lastupdated))))
      fail(
        'lastupdated did not move forward with the update',
        item!.lastupdated,
        `later than ${String(event.item.lastupdated)}`,
        ['ITEM-006'],
        '/lastupdated',
      );
    if (Date.parse(String(item!.creationdate)) !== Date.parse(String(event.item.creationdate)))
      fail(
        'creationdate changed with the update',
        item!.creationdate,
        event.item.creationdate,
        ['ITEM-005'],
        '/creationdate',
      );
    ctx.verified(['ITEM-005', 'ITEM-006', 'WRITE-002']);
    if (item!.location !== undefined)
      fail(
        'a PUT without location kept the location (a PUT replaces the writable fields)',
        item!.location,
        '(absent)',
        ['DEC-ITEM-001'],
        '/location',
      );
  },
});
