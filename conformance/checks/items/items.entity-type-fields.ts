import { ENTITY_TYPE } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem } from '../../support/items.ts';
import { writerToken } from '../../support/organisations.ts';
import type { CollectionPath } from '../../support/itemTypes.ts';

interface Case {
  collection: CollectionPath;
  body: Record<string, unknown>;
  field: string;
  requirements: string[];
  what: string;
}

const CASES: Case[] = [
  {
    collection: '/locations',
    body: { priceElements: [{ from: 5, till: 10 }] },
    field: 'priceElements',
    requirements: ['ITEM-011', 'ITEM-024'],
    what: 'priceElements on a location',
  },
  {
    collection: '/venues',
    body: { promotions: [{ externalReference: 'x' }] },
    field: 'promotions',
    requirements: ['ITEM-012'],
    what: 'promotions on a venue',
  },
  {
    collection: '/routes',
    body: { performers: [{ label: 'x' }] },
    field: 'performers',
    requirements: ['ITEM-013'],
    what: 'performers on a route',
  },
  {
    collection: '/events',
    body: { routeInfo: { routeType: 'walking' } },
    field: 'routeInfo',
    requirements: ['ITEM-014'],
    what: 'routeInfo on an event',
  },
  {
    collection: '/locations',
    body: { trcitemRelation: { links: [{ linkType: 'child', trcid: 'x' }] } },
    field: 'trcitemRelation',
    requirements: ['ITEM-024'],
    what: 'a child link on a location',
  },
  {
    collection: '/events',
    body: { eventLinks: [{ eventId: 'trc-conformance-event' }] },
    field: 'eventLinks',
    requirements: ['DEC-ITEM-152'],
    what: "an event group's eventLinks on an event",
  },
];

export default defineCheck({
  id: 'items.entity-type-fields',
  title:
    'Fields of one entity type never show on another (priceElements, promotions, performers on events only; routeInfo on routes only; a location links only as alias or comment): such a write is refused with a 400 naming the field, or the field is not stored',
  requirements: [
    'ITEM-011',
    'ITEM-012',
    'ITEM-013',
    'ITEM-014',
    'ITEM-024',
    'ITEM-025',
    'ITEM-015',
    'DEC-ITEM-015',
    'DEC-ITEM-013',
    'DEC-ITEM-152',
  ],
  tags: ['items', 'write'],
  needs: ['write'],
  writes:
    'nothing on a conforming target (each write must be refused); a target that stores one anyway gets it tagged and soft-deleted',
  run: async (ctx) => {
    let decisionFailure: CheckFailure | undefined;
    const token = writerToken(ctx);
    for (const c of CASES) {
      const tag = ctx.tag('foreign-field');
      const res = await ctx.http.post(c.collection, {
        token,
        json: { trcid: tag, slug: tag, trcItemDetails: [{ lang: 'nl', title: tag }], ...c.body },
        validate: 'defer',
      });
      const decision = c.field === 'trcitemRelation' ? 'DEC-ITEM-013' : 'DEC-ITEM-015';
      if (res.status === 400) {
        res.assertConforms([decision]);
        const message = (res.body as { message?: unknown } | undefined)?.message;
        if (typeof message !== 'string' || !message.includes(c.field === 'trcitemRelation' ? 'linkType' : c.field)) {
          decisionFailure ??= new CheckFailure({
            message: `${c.what}: the 400 does not name the field`,
            received: message,
            expected: `a message naming ${c.field}`,
            requirements: [decision],
            exchanges: [res.exchange],
          });
        }
        continue;
      }
      const id = (res.body as { id?: unknown } | undefined)?.id;
      if (res.status < 300 && typeof id === 'string') ctx.cleanup.softDelete(`${c.collection}/${id}`, token);
      if (res.status >= 300)
        throw new CheckFailure({
          message: `${c.what} answered ${res.status}`,
          received: res.status,
          expected: '400, or 201 without the field stored',
          requirements: [decision],
          exchanges: [res.exchange],
        });
      res.assertConforms(c.requirements);
      const read = await ctx.http.get(`${c.collection}/${String(id)}`, { token, validate: 'defer' });
      const item = read.body as Record<string, unknown>;
      const stored =
        c.field === 'trcitemRelation'
          ? (item.trcitemRelation as { links?: { linkType?: string }[] } | undefined)?.links?.some(
              (l) => l.linkType === 'child',
            )
          : item[c.field] !== undefined;
      if (stored)
        throw new CheckFailure({
          message: `${c.what} was stored`,
          received: item[c.field],
          expected: '(not stored)',
          requirements: c.requirements,
          exchanges: [res.exchange, read.exchange],
        });
      read.assertConforms(c.requirements);
      decisionFailure ??= new CheckFailure({
        message: `${c.what} was accepted (and dropped) instead of refused`,
        received: res.status,
        expected: 400,
        requirements: [decision],
        exchanges: [res.exchange],
      });
    }
    ctx.verified(['ITEM-011', 'ITEM-012', 'ITEM-013', 'ITEM-014', 'ITEM-024']);
    // The fields each type does have are kept: events (priceElements, promotions, performers) and routes are in properties.round-trip.
    const venue = await createItem(
      ctx,
      '/venues',
      {
        entitytype: ENTITY_TYPE.VENUE,
        // The interface names subItemGroups but not a room's fields: the operator's model's are
        // written (DEC-ITEM-151), and the room counts as kept when its title comes back in it.
        trcitemRelation: { subItemGroups: [{ subItemTranslations: [{ lang: 'nl', title: 'Zaal 1' }] }] },
      },
      { label: 'venue-rooms', requirements: ['ITEM-025', 'ITEM-015'] },
    );
    if (venue.item.entitytype !== ENTITY_TYPE.VENUE)
      throw new CheckFailure({
        message: 'a venue is not stored as VENUE',
        received: venue.item.entitytype,
        expected: ENTITY_TYPE.VENUE,
        requirements: ['ITEM-025'],
        exchanges: [venue.created.exchange],
      });
    const rooms = (venue.item.trcitemRelation as { subItemGroups?: unknown } | undefined)?.subItemGroups;
    if (!Array.isArray(rooms) || rooms.length !== 1 || !JSON.stringify(rooms[0]).includes('Zaal 1'))
      throw new CheckFailure({
        message: `${venue.path}: the room is not held in trcitemRelation.subItemGroups`,
        received: venue.item.trcitemRelation,
        expected: { subItemGroups: [{ subItemTranslations: [{ lang: 'nl', title: 'Zaal 1' }] }] },
        requirements: ['ITEM-015', 'ITEM-025'],
        exchanges: [venue.created.exchange],
      });
    ctx.verified(['ITEM-015', 'ITEM-025']);
    if (decisionFailure) throw decisionFailure;
  },
});
