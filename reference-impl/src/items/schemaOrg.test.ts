import { describe, expect, it } from 'vitest';
import { schemaOrgOf } from './schemaOrg.ts';

const event = (when: { timestart: string; timeend?: string }, date = '2027-08-14') =>
  schemaOrgOf('EVENEMENT', { calendar: { singleDates: [{ date, when: [when] }] } }) as Record<string, unknown>;

describe('schemaOrgOf event dates [DEC-ITEM-030]', () => {
  it('when an event ends later the same day, then endDate is that day (summer offset)', () => {
    expect(event({ timestart: '20:00', timeend: '23:00' })).toMatchObject({
      startDate: '2027-08-14T20:00:00+02:00',
      endDate: '2027-08-14T23:00:00+02:00',
    });
  });

  it('when an event ends at 00:00, then endDate is the next day at 00:00, after the start', () => {
    expect(event({ timestart: '20:00', timeend: '00:00' })).toMatchObject({
      startDate: '2027-08-14T20:00:00+02:00',
      endDate: '2027-08-15T00:00:00+02:00',
    });
  });

  it('when an event ends past midnight, then endDate is the next day (winter offset)', () => {
    expect(event({ timestart: '22:00', timeend: '02:00' }, '2027-01-09')).toMatchObject({
      startDate: '2027-01-09T22:00:00+01:00',
      endDate: '2027-01-10T02:00:00+01:00',
    });
  });
});

describe('schemaOrgOf event dates at DST changes and old offsets [DEC-ITEM-030]', () => {
  it('when a time falls in the spring gap, then it keeps the winter offset, and a time after the change has the summer one', () => {
    expect(event({ timestart: '02:30', timeend: '03:30' }, '2027-03-28')).toMatchObject({
      startDate: '2027-03-28T02:30:00+01:00',
      endDate: '2027-03-28T03:30:00+02:00',
    });
  });

  it('when a time occurs twice in the autumn, then it has the earlier (summer) offset', () => {
    expect(event({ timestart: '02:30', timeend: '02:15' }, '2027-10-31')).toMatchObject({
      startDate: '2027-10-31T02:30:00+02:00',
      endDate: '2027-11-01T02:15:00+01:00',
    });
  });

  it('when the day is long past, then the offset is the one in force then, in whole minutes', () => {
    expect(event({ timestart: '12:00' }, '1943-06-01')).toMatchObject({ startDate: '1943-06-01T12:00:00+02:00' });
    expect(event({ timestart: '12:00' }, '1880-06-01')).toMatchObject({ startDate: '1880-06-01T12:00:00+00:18' }); // local mean time, +00:17:30
  });
});

describe('schemaOrgOf @type', () => {
  const typeOf = (entitytype: 'LOCATIE' | 'EVENEMENT' | 'EVENTGROUP', types: unknown[]) =>
    schemaOrgOf(entitytype, { trcItemCategories: { types } })['@type'];

  it('when the type has a cnetID of several parts, then the longest prefix with a schema.org type wins', () => {
    expect(typeOf('LOCATIE', [{ catid: '2.3.9.1' }])).toBe('LodgingBusiness');
    expect(typeOf('EVENEMENT', [{ catid: '1.2.4.1' }])).toBe('DanceEvent');
    expect(typeOf('LOCATIE', [{ catid: '2' }])).toBe('Place');
  });

  it('when a type is marked default, then it is used, else the first type; entries that are not objects are skipped', () => {
    expect(typeOf('LOCATIE', [{ catid: '2.3.1.5', isDefault: false }, 'x', { catid: '2.2.1', isDefault: true }])).toBe(
      'Restaurant',
    );
    expect(typeOf('LOCATIE', [null, { catid: '2.3.1' }, { catid: '2.2.1' }])).toBe('Hotel');
  });

  it('when an event group has an event type, then it is an EventSeries unless the type is a festival', () => {
    expect(typeOf('EVENTGROUP', [{ catid: '1.4.2' }])).toBe('Festival');
    expect(typeOf('EVENTGROUP', [{ catid: '1.1.3' }])).toBe('EventSeries');
  });
});

describe("schemaOrgOf from the operator's model's parts [DEC-ITEM-030]", () => {
  const item = {
    translations: { primaryLanguage: 'en' },
    trcItemDetails: [
      { lang: 'nl', title: 'Concert', shortdescription: 'Een concert.' },
      { lang: 'en', title: 'Concert', shortdescription: 'A concert.' },
    ],
    performers: [{ label: 'Amsterdams Barokensemble', rolelabel: 'ensemble' }, { label: '' }, 'x'],
    priceElements: [{ freeentrance: true }],
  };

  it('when an event states texts, performers and a free entrance, then description, performer and a 0.00 offer are said, and it is scheduled', () => {
    expect(schemaOrgOf('EVENEMENT', item)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Concert',
      description: 'A concert.',
      eventStatus: 'https://schema.org/EventScheduled',
      offers: { '@type': 'Offer', price: '0.00', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
      performer: [{ name: 'Amsterdams Barokensemble' }],
    });
  });

  it('when the calendar says cancelled and sold out, then the event is cancelled and its offer sold out', () => {
    const out = schemaOrgOf('EVENEMENT', { ...item, calendar: { cancelled: true, soldout: true } });
    expect(out.eventStatus).toBe('https://schema.org/EventCancelled');
    expect(out.offers).toMatchObject({ availability: 'https://schema.org/SoldOut' });
  });

  it('when a price element has neither a from nor a free entrance, then there is no offer', () => {
    expect(schemaOrgOf('EVENEMENT', { priceElements: [{ freeentrance: false }] })).not.toHaveProperty('offers');
    expect(schemaOrgOf('EVENEMENT', { priceElements: [{ from: 12, freeentrance: true }] }).offers).toMatchObject({
      price: '12.00',
    });
  });
});

describe('schemaOrgOf places [DEC-ITEM-030] [DEC-ITEM-163]', () => {
  const location = {
    address: {
      city: 'Amsterdam',
      gisCoordinates: [
        { xcoordinate: '4.885278', ycoordinate: '52.359997', label: 'Hoofdingang' },
        { xcoordinate: '4.8', ycoordinate: '52.3' },
      ],
    },
  };

  it("when a location's address has points, then geo is the first point, x the longitude and y the latitude", () => {
    expect(schemaOrgOf('LOCATIE', { location })).toMatchObject({
      address: { '@type': 'PostalAddress', addressLocality: 'Amsterdam' },
      geo: { '@type': 'GeoCoordinates', latitude: 52.359997, longitude: 4.885278 },
    });
  });

  it('when an event has only points and no postal fields, then its place is given by the first point', () => {
    const only = { address: { gisCoordinates: location.address.gisCoordinates } };
    expect(schemaOrgOf('EVENEMENT', { location: only }).location).toEqual({
      '@type': 'Place',
      geo: { '@type': 'GeoCoordinates', latitude: 52.359997, longitude: 4.885278 },
    });
  });

  it('when the first point is not two decimal strings, then there is no geo', () => {
    const odd = { address: { gisCoordinates: [{ xcoordinate: 'east', ycoordinate: '52' }] } };
    expect(schemaOrgOf('LOCATIE', { location: odd }).geo).toBeUndefined();
  });
});
