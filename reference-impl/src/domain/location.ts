import { isObject } from '../../../spec/json.ts';
import { ruleViolation } from './ruleViolation.ts';

// DEC-ITEM-163: an item's position is the first point of `location.address.gisCoordinates`, as
// the operator's model has it. The interface text names `xcoordinate` and `ycoordinate` on
// `location` without saying where they sit, so a writer who put them on `location` itself is not
// refused: they move to the first point, and responses carry them there only.

type Loose = Record<string, unknown>;

const COORDINATES = ['xcoordinate', 'ycoordinate'] as const;

/**
 * The location as stored: `xcoordinate`/`ycoordinate` on it moved to
 * `address.gisCoordinates[0]`. A first point sent as well must hold the same values (a 400
 * otherwise, at `pointer`); anything else is returned as it is.
 */
export function normaliseLocationForWrite(location: unknown, pointer = '/location'): unknown {
  if (!isObject(location) || !COORDINATES.some((name) => name in location)) return location;
  const { xcoordinate, ycoordinate, ...rest } = location;
  const sent: Loose = {};
  if (xcoordinate !== undefined) sent.xcoordinate = xcoordinate;
  if (ycoordinate !== undefined) sent.ycoordinate = ycoordinate;
  const address = isObject(rest.address) ? rest.address : {};
  const points = Array.isArray(address.gisCoordinates) ? address.gisCoordinates : [];
  const first = points[0];
  if (isObject(first)) {
    for (const name of COORDINATES) {
      if (sent[name] !== undefined && first[name] !== sent[name]) {
        throw ruleViolation(
          `${pointer}/${name}`,
          `${pointer.slice(1)}/${name} ${JSON.stringify(sent[name])} differs from ${pointer.slice(1)}/address/gisCoordinates/0/${name} ${JSON.stringify(first[name])}: send the position once, in address.gisCoordinates[0] (DEC-ITEM-163)`,
        );
      }
    }
    return { ...rest, address: { ...address, gisCoordinates: [{ ...sent, ...first }, ...points.slice(1)] } };
  }
  return { ...rest, address: { ...address, gisCoordinates: [sent, ...points.slice(1)] } };
}

/** The routes' points of interest have a location each (DEC-ITEM-016): the same move there. */
export function normalisePoiLocationsForWrite(routeInfo: unknown): unknown {
  if (!isObject(routeInfo) || !Array.isArray(routeInfo.pois)) return routeInfo;
  const pois = routeInfo.pois.map((poi, index) =>
    isObject(poi) && poi.location !== undefined
      ? { ...poi, location: normaliseLocationForWrite(poi.location, `/routeInfo/pois/${index}/location`) }
      : poi,
  );
  return { ...routeInfo, pois };
}

/** The item's position, `location.address.gisCoordinates[0]`, when it has both coordinates as strings. */
export function positionOf(location: unknown): { xcoordinate: string; ycoordinate: string } | undefined {
  const address = isObject(location) && isObject(location.address) ? location.address : undefined;
  const first = Array.isArray(address?.gisCoordinates) ? address.gisCoordinates[0] : undefined;
  if (!isObject(first) || typeof first.xcoordinate !== 'string' || typeof first.ycoordinate !== 'string')
    return undefined;
  return { xcoordinate: first.xcoordinate, ycoordinate: first.ycoordinate };
}
