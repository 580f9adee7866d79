import { describe, expect, it } from 'vitest';
import { RuleViolation } from './ruleViolation.ts';
import {
  COLLECTIONS,
  ENTITY_TYPES,
  RESOURCE_TYPES,
  allowedLinkTypes,
  assertEntityRules,
  collectionOf,
  entitytypeOf,
  eventLinksOf,
  resolveWriteEntitytype,
  type Collection,
} from './entityRules.ts';

function caught(fn: () => unknown): RuleViolation {
  try {
    fn();
  } catch (error) {
    if (error instanceof RuleViolation) return error;
    throw error;
  }
  throw new Error('expected an RuleViolation');
}

describe('collections and entity types', () => {
  it('when mapping, then each collection holds exactly one entity type and back [ITEM-028] [ITEM-001]', () => {
    expect(COLLECTIONS).toEqual({
      events: 'EVENEMENT',
      locations: 'LOCATIE',
      venues: 'VENUE',
      eventgroups: 'EVENTGROUP',
      routes: 'ROUTE',
    });
    for (const entitytype of ENTITY_TYPES) expect(entitytypeOf(collectionOf(entitytype))).toBe(entitytype);
  });

  it('when naming webhook resource types, then they follow the interface [HOOK-001]', () => {
    expect(RESOURCE_TYPES).toEqual({
      EVENEMENT: 'EVENT',
      LOCATIE: 'LOCATION',
      ROUTE: 'ROUTE',
      EVENTGROUP: 'EVENTGROUP',
      VENUE: 'VENUE',
    });
  });
});

describe('resolveWriteEntitytype', () => {
  it("when the body has no entitytype or its own, then the collection's is used [DEC-ITEM-008]", () => {
    for (const [collection, entitytype] of Object.entries(COLLECTIONS) as [Collection, string][]) {
      expect(resolveWriteEntitytype(collection, undefined)).toBe(entitytype);
      expect(resolveWriteEntitytype(collection, entitytype)).toBe(entitytype);
    }
  });

  it('when /eventgroups receives EVENEMENTGROEP, then it is stored as EVENTGROUP [VER-002] [DEC-ITEM-008]', () => {
    expect(resolveWriteEntitytype('eventgroups', 'EVENEMENTGROEP')).toBe('EVENTGROUP');
  });

  it('when a body names another entity type, then it is a 400 naming both [DEC-ITEM-008] [ITEM-025]', () => {
    const error = caught(() => resolveWriteEntitytype('events', 'LOCATIE'));
    expect(error.kind).toBe('invalid');
    expect(error.message).toBe('entitytype must be EVENEMENT on /events (received: "LOCATIE")');
    expect(caught(() => resolveWriteEntitytype('events', 'EVENEMENTGROEP')).kind).toBe('invalid');
    expect(caught(() => resolveWriteEntitytype('venues', 'LOCATIE')).kind).toBe('invalid');
    expect(caught(() => resolveWriteEntitytype('events', 'evenement')).kind).toBe('invalid');
  });
});

describe('assertEntityRules', () => {
  it('when an event carries event fields and child links, then it passes [ITEM-023]', () => {
    expect(() =>
      assertEntityRules('EVENEMENT', {
        priceElements: [],
        promotions: [],
        performers: [{ label: 'Band' }],
        trcitemRelation: {
          links: [
            { linkType: 'child', trcid: 'a' },
            { linkType: 'parent', trcid: 'b' },
          ],
        },
      }),
    ).not.toThrow();
  });

  it('when a location carries priceElements, then it is a 400 naming the field [ITEM-024] [ITEM-011] [DEC-ITEM-015]', () => {
    const error = caught(() => assertEntityRules('LOCATIE', { priceElements: [{ from: 1 }] }));
    expect(error.kind).toBe('invalid');
    expect(error.message).toContain('priceElements');
    expect(error.details).toEqual([{ pointer: '/priceElements', message: expect.stringContaining('EVENEMENT') }]);
  });

  it('when a non-event carries promotions or performers, then it is a 400 naming each [ITEM-012] [ITEM-013] [DEC-ITEM-015]', () => {
    const error = caught(() => assertEntityRules('ROUTE', { promotions: [], performers: [] }));
    expect(error.details?.map((d) => d.pointer)).toEqual(['/promotions', '/performers']);
  });

  it('when routeInfo or eventLinks sit on the wrong type, then it is a 400; venueCapacity is no field of any type [ITEM-014] [ITEM-026] [DEC-ITEM-015] [DEC-ITEM-150]', () => {
    expect(caught(() => assertEntityRules('EVENEMENT', { routeInfo: {} })).details?.[0]?.pointer).toBe('/routeInfo');
    expect(caught(() => assertEntityRules('EVENEMENT', { eventLinks: [] })).details?.[0]?.pointer).toBe('/eventLinks');
    expect(() => assertEntityRules('ROUTE', { routeInfo: { routeType: 'walking' } })).not.toThrow();
    expect(() => assertEntityRules('EVENTGROUP', { eventLinks: [{ eventId: 'trc-e' }] })).not.toThrow();
    // Left to the schema, which refuses unknown root fields of every type.
    expect(() => assertEntityRules('VENUE', { venueCapacity: { totalCapacity: 1 } })).not.toThrow();
  });

  it('when a location links with alias or comment, then it passes; with another type, a 400 naming the link [ITEM-024] [DEC-ITEM-013]', () => {
    expect(allowedLinkTypes('LOCATIE')).toEqual(['alias', 'comment']);
    expect(() =>
      assertEntityRules('LOCATIE', {
        trcitemRelation: {
          links: [
            { linkType: 'alias', trcid: 'x' },
            { linkType: 'comment', trcid: 'y' },
          ],
        },
      }),
    ).not.toThrow();
    const error = caught(() =>
      assertEntityRules('LOCATIE', {
        trcitemRelation: {
          links: [
            { linkType: 'alias', trcid: 'x' },
            { linkType: 'child', trcid: 'y' },
          ],
        },
      }),
    );
    expect(error.details).toEqual([
      {
        pointer: '/trcitemRelation/links/1/linkType',
        message: 'linkType must be one of alias, comment on a LOCATIE item (received: "child")',
      },
    ]);
  });

  it('when any item uses an unknown link type, then it is a 400 [DEC-ITEM-013]', () => {
    expect(
      caught(() => assertEntityRules('EVENEMENT', { trcitemRelation: { links: [{ linkType: 'sibling' }] } })).kind,
    ).toBe('invalid');
  });

  it('when a venue keeps rooms in subItemGroups, then it passes [ITEM-015] [ITEM-025]', () => {
    expect(() =>
      assertEntityRules('VENUE', {
        trcitemRelation: {
          subItemGroups: [
            { subItemTranslations: [{ lang: 'nl', title: 'Zaal 1' }], categories: [{ catid: 'p-1601' }] },
          ],
        },
      }),
    ).not.toThrow();
  });
});

describe('eventLinksOf', () => {
  it("when an event group has child links, then eventLinks name each child's trcid in order, and nothing else [ITEM-026] [DEC-ITEM-152]", () => {
    const doc = {
      trcitemRelation: {
        links: [
          { linkType: 'child', trcid: 'trc-a' },
          { linkType: 'related', trcid: 'trc-r' },
          { linkType: 'child', trcid: 'trc-b', comment: 'slotconcert' },
          { linkType: 'child' },
        ],
      },
    };
    expect(eventLinksOf('EVENTGROUP', doc)).toEqual([{ eventId: 'trc-a' }, { eventId: 'trc-b' }]);
    expect(eventLinksOf('EVENEMENT', doc)).toBeUndefined();
    expect(
      eventLinksOf('EVENTGROUP', { trcitemRelation: { links: [{ linkType: 'parent', trcid: 'x' }] } }),
    ).toBeUndefined();
    expect(eventLinksOf('EVENTGROUP', {})).toBeUndefined();
  });
});
