import { ENTITY_TYPE } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { createItem } from '../../support/items.ts';
import { writerToken } from '../../support/organisations.ts';

export default defineCheck({
  id: 'items.entitytype-rules',
  title:
    'A collection accepts only its own entitytype (another one is a 400); EVENEMENTGROEP, the name before May 2025, is accepted on /eventgroups and stored as EVENTGROUP',
  requirements: ['DEC-ITEM-008'],
  tags: ['items', 'decision'],
  needs: ['write'],
  writes: 'one event group (tagged with the run id); a location with the wrong entitytype that must be refused',
  run: async (ctx) => {
    const token = writerToken(ctx);
    const tag = ctx.tag('wrong-type');
    const wrong = await ctx.http.post('/locations', {
      token,
      json: { trcid: tag, slug: tag, entitytype: ENTITY_TYPE.EVENEMENT, trcItemDetails: [{ lang: 'nl', title: tag }] },
      validate: 'defer',
    });
    const id = (wrong.body as { id?: unknown } | undefined)?.id;
    if (wrong.status < 300 && typeof id === 'string') ctx.cleanup.softDelete(`/locations/${id}`, token);
    assertStatus(wrong, 400, { message: `POST /locations with entitytype EVENEMENT answered ${wrong.status}` });
    wrong.assertConforms();
    const legacy = await createItem(ctx, '/eventgroups', { entitytype: 'EVENEMENTGROEP' }, { label: 'legacy-group' });
    if (legacy.item.entitytype !== ENTITY_TYPE.EVENTGROUP)
      throw new CheckFailure({
        message: 'an event group written as EVENEMENTGROEP is not stored as EVENTGROUP',
        received: legacy.item.entitytype,
        expected: ENTITY_TYPE.EVENTGROUP,
        pointer: '/entitytype',
        exchanges: [legacy.created.exchange],
      });
  },
});
