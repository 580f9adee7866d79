import { ENTITY_TYPE } from '../../../generated/constants.ts';
import { sortTitle } from '../domain/itemWrite.ts';
import { positionOf } from '../domain/location.ts';
import { formatDay, wallTimeToInstant } from '../domain/timestamps.ts';
import type { EntityType } from '../domain/entityRules.ts';
import { isObject } from '../../../spec/json.ts';

// `seoMetadata.schemaOrgJsonLd` (ITEM-010, DEC-ITEM-030): the schema.org JSON-LD object the
// server derives from the item on every read, as the operator's model maps the item's parts to it.
// Read-only: a value sent on write is dropped (DEC-ITEM-005), so it always reflects the item as it
// is. Only what the item states is said; nothing is guessed.

type Loose = Record<string, unknown>;

/** schema.org types by the default type's cnetID in the base tree; the longest matching prefix wins. */
const TYPES_BY_CNET_ID: Readonly<Record<string, string>> = {
  '1.1': 'MusicEvent',
  '1.2': 'TheaterEvent',
  '1.2.4': 'DanceEvent',
  '1.3': 'ExhibitionEvent',
  '1.4': 'Festival',
  '1.6': 'SportsEvent',
  '1.7': 'ScreeningEvent',
  '1.8': 'EducationEvent',
  '1.11': 'ChildrensEvent',
  '2.1': 'Museum',
  '2.2': 'FoodEstablishment',
  '2.2.1': 'Restaurant',
  '2.2.2': 'CafeOrCoffeeShop',
  '2.3': 'LodgingBusiness',
  '2.3.1': 'Hotel',
  '2.3.2': 'BedAndBreakfast',
  '2.3.3': 'Campground',
  '2.4': 'TouristAttraction',
  '2.4.1': 'AmusementPark',
  '2.4.2': 'Zoo',
  '2.4.3': 'LandmarksOrHistoricalBuildings',
  '2.5': 'Park',
  '2.5.3': 'Beach',
  '2.6': 'PerformingArtsTheater',
  '2.6.4': 'MovieTheater',
  '2.7': 'Store',
  '2.7.1': 'ShoppingCenter',
  '2.8': 'EventVenue',
};

const FALLBACK_TYPES: Readonly<Record<EntityType, string>> = {
  EVENEMENT: 'Event',
  LOCATIE: 'Place',
  VENUE: 'EventVenue',
  EVENTGROUP: 'EventSeries',
  ROUTE: 'TouristTrip',
};

const TOURIST_TYPES: Readonly<Record<string, { nl: string; en: string }>> = {
  walking: { nl: 'Wandelaars', en: 'Walkers' },
  cycling: { nl: 'Fietsers', en: 'Cyclists' },
  driving: { nl: 'Automobilisten', en: 'Drivers' },
  driving_traffic: { nl: 'Automobilisten', en: 'Drivers' },
};

/** `item` is the stored document with its calendar expanded (the days of patterns included). */
export function schemaOrgOf(entitytype: EntityType, item: Readonly<Loose>): Loose {
  const out: Loose = { '@context': 'https://schema.org', '@type': schemaType(entitytype, item) };
  const name = sortTitle(item);
  if (name !== null) out.name = name;
  const description = primaryDetail(item)?.shortdescription;
  if (typeof description === 'string' && description !== '') out.description = description;
  const address = postalAddress(item.location);
  const geo = coordinates(item.location);

  if (entitytype === ENTITY_TYPE.EVENEMENT || entitytype === ENTITY_TYPE.EVENTGROUP) {
    const calendar = isObject(item.calendar) ? item.calendar : {};
    Object.assign(out, eventDates(calendar, entitytype === ENTITY_TYPE.EVENTGROUP));
    out.eventStatus = `https://schema.org/${calendar.cancelled === true ? 'EventCancelled' : 'EventScheduled'}`;
    // The place by its address; by its coordinates only when it has no address.
    if (address !== undefined || geo !== undefined)
      out.location = compact({ '@type': 'Place', address, geo: address === undefined ? geo : undefined });
    const offer = firstOffer(item.priceElements, calendar.soldout === true);
    if (offer !== undefined) out.offers = offer;
    const performers = performersOf(item.performers);
    if (performers.length > 0) out.performer = performers;
  } else if (entitytype === ENTITY_TYPE.ROUTE) {
    const routeType = isObject(item.routeInfo) ? TOURIST_TYPES[String(item.routeInfo.routeType)] : undefined;
    if (routeType !== undefined) out.touristType = primaryLanguage(item) === 'nl' ? routeType.nl : routeType.en;
  } else {
    const capacity = entitytype === ENTITY_TYPE.VENUE ? totalCapacity(item.trcItemCategories) : undefined;
    if (capacity !== undefined) out.maximumAttendeeCapacity = capacity;
    if (address !== undefined) out.address = address;
    // As the spec's examples show it: a location with its coordinates, a venue by its address.
    if (geo !== undefined && (entitytype === ENTITY_TYPE.LOCATIE || address === undefined)) out.geo = geo;
  }
  return out;
}

/** The base property ontology's "Totale capaciteit", a venue's capacity property (DEC-ITEM-150). */
const TOTAL_CAPACITY_PROPERTY = 'p-1501';

/** A venue's total capacity in persons: the whole number of its total capacity category. */
function totalCapacity(categories: unknown): number | undefined {
  const list = isObject(categories) && Array.isArray(categories.categories) ? categories.categories : [];
  const value = list.find((c) => isObject(c) && c.catid === TOTAL_CAPACITY_PROPERTY)?.value;
  const persons = typeof value === 'string' && /^\s*\+?\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(persons) ? persons : undefined;
}

function schemaType(entitytype: EntityType, item: Readonly<Loose>): string {
  if (entitytype === ENTITY_TYPE.VENUE || entitytype === ENTITY_TYPE.ROUTE) return FALLBACK_TYPES[entitytype];
  const catid = defaultType(item.trcItemCategories)?.catid;
  if (typeof catid === 'string') {
    // The prefixes of two or more parts, longest first: 2.3.1, then 2.3.
    for (let prefix = catid; prefix.includes('.'); prefix = prefix.slice(0, prefix.lastIndexOf('.'))) {
      const type = TYPES_BY_CNET_ID[prefix];
      // A group is a Festival only when typed as one; other event types do not fit a container.
      if (type !== undefined && (entitytype !== ENTITY_TYPE.EVENTGROUP || type === 'Festival')) return type;
    }
  }
  return FALLBACK_TYPES[entitytype];
}

/** The type marked default, else the first. */
function defaultType(categories: unknown): Loose | undefined {
  if (!isObject(categories) || !Array.isArray(categories.types)) return undefined;
  let first: Loose | undefined;
  for (const type of categories.types as unknown[]) {
    if (!isObject(type)) continue;
    if (type.isDefault === true) return type;
    first ??= type;
  }
  return first;
}

const STARTS_WITH_DATE = /^\d{4}-\d{2}-\d{2}/;

/** An event's first day with its first time slot as local times with their Amsterdam offset; a group's first and last day. */
function eventDates(calendar: Loose, datesOnly: boolean): Loose {
  let first: Loose | undefined, last: Loose | undefined;
  for (const day of (Array.isArray(calendar.singleDates) ? calendar.singleDates : []) as Loose[]) {
    if (!isObject(day) || typeof day.date !== 'string' || !STARTS_WITH_DATE.test(day.date)) continue;
    if (first === undefined || day.date < String(first.date)) first = day;
    if (last === undefined || day.date > String(last.date)) last = day;
  }
  if (first === undefined || last === undefined) return {};
  const firstDay = String(first.date).slice(0, 10);
  if (datesOnly) return { startDate: firstDay, endDate: String(last.date).slice(0, 10) };
  const slot = (Array.isArray(first.when) ? first.when : []).find(isObject);
  const start = typeof slot?.timestart === 'string' ? slot.timestart : undefined;
  if (start === undefined) return { startDate: firstDay };
  const out: Loose = { startDate: localWithOffset(firstDay, start) };
  if (typeof slot?.timeend === 'string') {
    // An end at or before the start (22:00–02:00, 20:00–00:00) is on the next day (DEC-ITEM-023).
    out.endDate = localWithOffset(slot.timeend <= start ? nextDay(firstDay) : firstDay, slot.timeend);
  }
  return out;
}

/** `2027-08-14T20:15:00+02:00`: the wall time in Europe/Amsterdam with the offset in force then. */
function localWithOffset(day: string, time: string): string {
  const [y, m, d] = day.split('-'),
    [hh, mm] = time.split(':');
  const wall = Date.UTC(Number(y), Number(m) - 1, Number(d), Number(hh), Number(mm));
  return `${day}T${time}:00${offsetText(Math.round((wall - wallTimeToInstant(wall)) / 60_000))}`;
}

const offsetTexts = new Map<number, string>();

/** `+02:00` for 120 minutes; a zone has only a few offsets, so each is written once. */
function offsetText(minutes: number): string {
  let text = offsetTexts.get(minutes);
  if (text === undefined) {
    const abs = Math.abs(minutes);
    text = `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
    offsetTexts.set(minutes, text);
  }
  return text;
}

function nextDay(day: string): string {
  return formatDay(new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000));
}

function postalAddress(location: unknown): Loose | undefined {
  if (!isObject(location) || !isObject(location.address)) return undefined;
  const a = location.address;
  const street = [a.street, a.housenr].filter((p) => typeof p === 'string' && p !== '').join(' ');
  const address = compact({
    '@type': 'PostalAddress',
    streetAddress: street || undefined,
    postalCode: a.zipcode,
    addressLocality: a.city,
    addressCountry: a.country,
  });
  return Object.keys(address).length > 1 ? address : undefined;
}

/** DEC-ITEM-012, DEC-ITEM-163: the first point of the address; x is the longitude, y the latitude. */
function coordinates(location: unknown): Loose | undefined {
  const position = positionOf(location);
  if (position === undefined) return undefined;
  const latitude = Number(position.ycoordinate),
    longitude = Number(position.xcoordinate);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return undefined;
  return { '@type': 'GeoCoordinates', latitude, longitude };
}

/** The first price of the item, in euros (DEC-ITEM-023); free entrance is a price of 0. */
function firstOffer(priceElements: unknown, soldout: boolean): Loose | undefined {
  const first = (Array.isArray(priceElements) ? priceElements : []).find(isObject);
  const price = typeof first?.from === 'number' ? first.from : first?.freeentrance === true ? 0 : undefined;
  if (price === undefined) return undefined;
  return {
    '@type': 'Offer',
    price: price.toFixed(2),
    priceCurrency: 'EUR',
    availability: `https://schema.org/${soldout ? 'SoldOut' : 'InStock'}`,
  };
}

/** The performers by name: whether one is a person or a group the item does not say, so no type. */
function performersOf(performers: unknown): Loose[] {
  return (Array.isArray(performers) ? performers : [])
    .filter((p): p is Loose => isObject(p) && typeof p.label === 'string' && p.label !== '')
    .map((p) => ({ name: p.label }));
}

/** The texts in the primary language, else the first: the ones the name comes from (sortTitle). */
function primaryDetail(item: Readonly<Loose>): Loose | undefined {
  const details = Array.isArray(item.trcItemDetails) ? item.trcItemDetails.filter(isObject) : [];
  const primary = isObject(item.translations) ? item.translations.primaryLanguage : undefined;
  return (primary === undefined ? undefined : details.find((d) => d.lang === primary)) ?? details[0];
}

function primaryLanguage(item: Readonly<Loose>): string | undefined {
  if (isObject(item.translations) && typeof item.translations.primaryLanguage === 'string')
    return item.translations.primaryLanguage;
  const first = (Array.isArray(item.trcItemDetails) ? item.trcItemDetails : []).find(isObject);
  return typeof first?.lang === 'string' ? first.lang : undefined;
}

function compact(value: Loose): Loose {
  const out: Loose = {};
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v !== undefined && v !== null && v !== '') out[key] = v;
  }
  return out;
}
