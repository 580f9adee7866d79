import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { createItem, updateItem } from '../../support/items.ts';
import { minimalItems } from '../../support/sharedItems.ts';
import { writerToken } from '../../support/organisations.ts';

const GENERATED = /^trc-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default defineCheck({
  id: 'items.trcid-rules',
  title:
    'trcid is generated as trc-<UUID> when absent, a second item with a taken trcid is a 409, and a PUT cannot change it (400)',
  requirements: ['DEC-ITEM-006'],
  tags: ['items', 'decision'],
  needs: ['write'],
  writes: 'one event (tagged with the run id); a duplicate that must be refused',
  run: async (ctx) => {
    for (const m of await minimalItems(ctx)) {
      if (!GENERATED.test(m.trcid))
        throw new CheckFailure({
          message: `${m.path} was created without trcid and got ${m.trcid}`,
          received: m.trcid,
          expected: 'trc-<UUID>',
          pointer: '/trcid',
          exchanges: [m.created.exchange],
        });
    }
    const event = await createItem(ctx, '/events', {}, { label: 'trcid' });
    const token = writerToken(ctx);
    const dup = await ctx.http.post('/events', {
      token,
      json: { trcid: event.trcid, trcItemDetails: [{ lang: 'nl', title: `${event.trcid} duplicate` }] },
      validate: 'defer',
    });
    const id = (dup.body as { id?: unknown } | undefined)?.id;
    if (dup.status < 300 && typeof id === 'string') ctx.cleanup.softDelete(`/events/${id}`, token);
    assertStatus(dup, 409, { message: `a second POST with the trcid ${event.trcid} answered ${dup.status}` });
    dup.assertConforms();
    const put = await updateItem(ctx, event, { trcid: `${event.trcid}-changed` });
    assertStatus(put, 400, { message: `a PUT changing trcid answered ${put.status}` });
    put.assertConforms();
  },
});
