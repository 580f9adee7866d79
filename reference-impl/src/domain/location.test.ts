import { describe, expect, it } from 'vitest';
import { RuleViolation } from './ruleViolation.ts';
import { normaliseLocationForWrite, normalisePoiLocationsForWrite, positionOf } from './location.ts';

describe('normaliseLocationForWrite', () => {
  it("when location carries the interface's xcoordinate and ycoordinate, then they move to address.gisCoordinates[0] [DEC-ITEM-163]", () => {
    const sent = { address: { city: 'Amsterdam' }, xcoordinate: '4.885278', ycoordinate: '52.359997', label: 'Plein' };
    expect(normaliseLocationForWrite(sent)).toEqual({
      address: { city: 'Amsterdam', gisCoordinates: [{ xcoordinate: '4.885278', ycoordinate: '52.359997' }] },
      label: 'Plein',
    });
  });

  it('when the location has no address, then one is made to hold the point [DEC-ITEM-163]', () => {
    expect(normaliseLocationForWrite({ xcoordinate: '5.1' })).toEqual({
      address: { gisCoordinates: [{ xcoordinate: '5.1' }] },
    });
  });

  it('when address.gisCoordinates is sent too with the same first point, then that point is kept with its label and the rest [DEC-ITEM-163]', () => {
    const points = [
      { xcoordinate: '4.9', ycoordinate: '52.3', label: 'Ingang' },
      { xcoordinate: '4.8', ycoordinate: '52.2' },
    ];
    expect(normaliseLocationForWrite({ xcoordinate: '4.9', address: { gisCoordinates: points } })).toEqual({
      address: { gisCoordinates: points },
    });
  });

  it('when the first point sent differs from location.xcoordinate, then it is a 400 naming both [DEC-ITEM-163]', () => {
    let caught: unknown;
    try {
      normaliseLocationForWrite({ xcoordinate: '4.9', address: { gisCoordinates: [{ xcoordinate: '5.0' }] } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RuleViolation);
    expect((caught as RuleViolation).details[0]).toMatchObject({ pointer: '/location/xcoordinate' });
    expect((caught as RuleViolation).message).toContain('address/gisCoordinates/0/xcoordinate "5.0"');
  });

  it("when the location is already in the model's shape or is no object, then it is returned as it is", () => {
    const model = { address: { gisCoordinates: [{ xcoordinate: '4.9', ycoordinate: '52.3' }] } };
    expect(normaliseLocationForWrite(model)).toBe(model);
    expect(normaliseLocationForWrite('x')).toBe('x');
  });

  it("when a route's point of interest has a location with coordinates, then they move the same way [DEC-ITEM-163]", () => {
    const routeInfo = { routeType: 'walking', pois: [{ location: { xcoordinate: '5', ycoordinate: '52' } }, 'x'] };
    expect(normalisePoiLocationsForWrite(routeInfo)).toEqual({
      routeType: 'walking',
      pois: [{ location: { address: { gisCoordinates: [{ xcoordinate: '5', ycoordinate: '52' }] } } }, 'x'],
    });
  });
});

describe('positionOf', () => {
  it('when the address has points, then the first with both coordinates as strings is the position', () => {
    expect(
      positionOf({ address: { gisCoordinates: [{ xcoordinate: '4.9', ycoordinate: '52.3', label: 'a' }] } }),
    ).toEqual({ xcoordinate: '4.9', ycoordinate: '52.3' });
    expect(positionOf({ address: { gisCoordinates: [{ xcoordinate: '4.9' }] } })).toBeUndefined();
    expect(positionOf({ xcoordinate: '4.9', ycoordinate: '52.3' })).toBeUndefined();
  });
});
