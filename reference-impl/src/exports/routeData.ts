import type { StoredItem } from '../storage/items/itemRow.ts';

// What the route downloads read from a stored route (DEC-ITEM-016): its routeInfo and the texts
// of its primary language. Coordinates are WGS84 decimal strings, xcoordinate the longitude and
// ycoordinate the latitude (DEC-ITEM-012); a point whose pair is not a valid one is left out of
// both formats rather than drawn at a wrong place.

export interface RoutePoint {
  /** As stored (decimal strings), for GPX. */
  lat: string;
  lon: string;
}

export interface RoutePoi extends RoutePoint {
  name?: string;
  trcid?: string;
}

export interface RouteData {
  id: string;
  trcid: string;
  title?: string;
  description?: string;
  routeType?: string;
  distance?: number;
  duration?: number;
  difficulty?: string;
  lastupdated: Date;
  waypoints: RoutePoint[];
  pointsOfInterest: RoutePoi[];
}

const DECIMAL = /^-?\d{1,3}(\.\d+)?$/;

export function routeData(item: StoredItem): RouteData {
  const info = isObject(item.doc.routeInfo) ? item.doc.routeInfo : {};
  const data: RouteData = {
    id: item.id,
    trcid: item.trcid,
    lastupdated: item.lastupdated,
    waypoints: list(info.waypoints).flatMap((w) => pointOf(w) ?? []),
    pointsOfInterest: list(info.pointsOfInterest).flatMap((p) => {
      const point = pointOf(p);
      if (point === undefined) return [];
      const poi: RoutePoi = { ...point };
      if (typeof p.name === 'string' && p.name !== '') poi.name = p.name;
      if (typeof p.trcid === 'string' && p.trcid !== '') poi.trcid = p.trcid;
      return [poi];
    }),
  };
  if (item.title !== null) data.title = item.title;
  const description = primaryDetail(item.doc)?.shortdescription;
  if (typeof description === 'string' && description !== '') data.description = description;
  if (typeof info.routeType === 'string') data.routeType = info.routeType;
  if (typeof info.distance === 'number' && Number.isFinite(info.distance)) data.distance = info.distance;
  if (typeof info.duration === 'number' && Number.isFinite(info.duration)) data.duration = info.duration;
  if (typeof info.difficulty === 'string') data.difficulty = info.difficulty;
  return data;
}

/** The detail in `translations.primaryLanguage`, else the first (as the stored sort title, DEC-LIST-003). */
function primaryDetail(doc: Record<string, unknown>): Record<string, unknown> | undefined {
  const details = list(doc.trcItemDetails);
  const primary = isObject(doc.translations) ? doc.translations.primaryLanguage : undefined;
  return details.find((d) => d.lang === primary) ?? details[0];
}

function pointOf(value: Record<string, unknown>): RoutePoint | undefined {
  const lon = value.xcoordinate,
    lat = value.ycoordinate;
  if (typeof lon !== 'string' || typeof lat !== 'string' || !DECIMAL.test(lon) || !DECIMAL.test(lat)) return undefined;
  if (Math.abs(Number(lon)) > 180 || Math.abs(Number(lat)) > 90) return undefined;
  return { lat, lon };
}

function list(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
