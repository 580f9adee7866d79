import { positionOf } from '../domain/location.ts';
import type { StoredItem } from '../storage/items/itemRow.ts';
import { isObject } from '../../../spec/json.ts';

// What the route downloads read from a stored route (DEC-ITEM-016, DEC-ITEM-026): its routeInfo
// in the operator's model's fields and the texts of its primary language. The path is the
// calculated one when it has two points or more, else the plotted one. A point that is not a
// WGS84 pair of numbers is left out of both formats rather than drawn at a wrong place. A point of
// interest is at its `coordinate`, else at its location's position (the first point of
// `location.address.gisCoordinates`, DEC-ITEM-163), and left out without either.

export interface RoutePoint {
  lat: number;
  lng: number;
  altitude?: number;
}

export interface RoutePoi {
  point: RoutePoint;
  title?: string;
  description?: string;
  label?: string;
  icon?: string;
  category?: string;
  /** `locationItem.trcid`: the location of this service the point is. */
  trcid?: string;
  distanceInKilometersFromStart?: number;
  durationInMinutesFromStart?: number;
}

/** The routeInfo fields the route feature and track carry, under their routeInfo names. */
export const ROUTE_INFO_PROPERTIES = [
  'type',
  'routeType',
  'url',
  'distanceInKilometers',
  'durationInMinutes',
  'difficulty',
  'primarySurface',
] as const;

export type RouteInfoProperties = Partial<Record<(typeof ROUTE_INFO_PROPERTIES)[number], string | number>>;

export interface RouteData {
  id: string;
  trcid: string;
  title?: string;
  description?: string;
  info: RouteInfoProperties;
  lastupdated: Date;
  /** The line to follow, in travel order. */
  path: RoutePoint[];
  pois: RoutePoi[];
  waterPoints: RoutePoint[];
}

const POI_TEXTS = ['label', 'icon', 'category'] as const;
const POI_NUMBERS = ['distanceInKilometersFromStart', 'durationInMinutesFromStart'] as const;

export function routeData(item: StoredItem): RouteData {
  const info = isObject(item.doc.routeInfo) ? item.doc.routeInfo : {};
  const calculated = points(info.calculatedCoordinates);
  const language = primaryLanguage(item.doc);
  const data: RouteData = {
    id: item.id,
    trcid: item.trcid,
    info: {},
    lastupdated: item.lastupdated,
    path: calculated.length >= 2 ? calculated : points(info.routeCoordinates),
    pois: list(info.pois).flatMap((poi) => poiOf(poi, language) ?? []),
    waterPoints: points(info.waterPoints),
  };
  if (item.title !== null) data.title = item.title;
  const description = detailIn(item.doc.trcItemDetails, language)?.shortdescription;
  if (nonEmpty(description)) data.description = description;
  for (const key of ROUTE_INFO_PROPERTIES) {
    const value = info[key];
    if (nonEmpty(value) || isFiniteNumber(value)) data.info[key] = value;
  }
  return data;
}

function poiOf(poi: Record<string, unknown>, language: unknown): RoutePoi | undefined {
  const point = pointOf(poi.coordinate) ?? pointOfPosition(poi.location);
  if (point === undefined) return undefined;
  const out: RoutePoi = { point };
  const detail = detailIn(poi.trcItemDetails, language);
  if (nonEmpty(detail?.title)) out.title = detail.title;
  if (nonEmpty(detail?.shortdescription)) out.description = detail.shortdescription;
  for (const key of POI_TEXTS) if (nonEmpty(poi[key])) out[key] = poi[key];
  const trcid = isObject(poi.locationItem) ? poi.locationItem.trcid : undefined;
  if (nonEmpty(trcid)) out.trcid = trcid;
  for (const key of POI_NUMBERS) if (isFiniteNumber(poi[key])) out[key] = poi[key];
  return out;
}

/** The language of the item's texts: `translations.primaryLanguage` (DEC-LIST-003's choice). */
function primaryLanguage(doc: Record<string, unknown>): unknown {
  return isObject(doc.translations) ? doc.translations.primaryLanguage : undefined;
}

/** The detail in `language`, else the first: the rule of the stored sort title (DEC-LIST-003). */
function detailIn(details: unknown, language: unknown): Record<string, unknown> | undefined {
  const all = list(details);
  return all.find((d) => d.lang === language) ?? all[0];
}

function points(value: unknown): RoutePoint[] {
  return Array.isArray(value) ? value.flatMap((p) => pointOf(p) ?? []) : [];
}

function pointOf(value: unknown): RoutePoint | undefined {
  if (!isObject(value)) return undefined;
  const { lat, lng, altitude } = value;
  if (!isFiniteNumber(lat) || !isFiniteNumber(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return undefined;
  return isFiniteNumber(altitude) ? { lat, lng, altitude } : { lat, lng };
}

/** A location's position: decimal strings, x the longitude and y the latitude (DEC-ITEM-012). */
function pointOfPosition(location: unknown): RoutePoint | undefined {
  const position = positionOf(location);
  if (position === undefined) return undefined;
  const decimal = /^-?[0-9]+(\.[0-9]+)?$/;
  if (!decimal.test(position.xcoordinate) || !decimal.test(position.ycoordinate)) return undefined;
  return pointOf({ lat: Number(position.ycoordinate), lng: Number(position.xcoordinate) });
}

function list(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
