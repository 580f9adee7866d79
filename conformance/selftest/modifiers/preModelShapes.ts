// Conforming variation: a vendor that kept the shapes we answered before we followed the operator's
// model (issue 27) where the interface says "not shown": `contactinfo.mail` a list of addresses,
// a file's `title` a plain string, `calendarType` `ALWAYS` for always open, and the coordinates in
// `location.xcoordinate`/`ycoordinate` (the interface's own words) instead of
// `location.address.gisCoordinates`. It takes the model's shapes on write as well and answers in
// its own, so what the suite writes there reads back otherwise (properties.round-trip); the one
// that refuses them on write is preModelShapesStrict.
// Each differs from one of our decisions, none from the interface.

import { isObject } from '../../../spec/json.ts';
import type { FaultModifier } from '../faultProxy.ts';
import { mapItems, type Item } from '../traffic.ts';

type Json = Record<string, unknown>;

function oldContactinfo(contact: Json): Json {
  if (!isObject(contact.mail)) return contact;
  const { mails: _mails, ...rest } = contact;
  return { ...rest, mail: typeof contact.mail.email === 'string' ? [{ email: contact.mail.email }] : [] };
}

function oldFile(file: unknown): unknown {
  if (!isObject(file) || !isObject(file.title)) return file;
  const { title, ...rest } = file;
  return typeof title.label === 'string' ? { ...rest, title: title.label } : rest;
}

function oldLocation(location: Json): Json {
  const address = isObject(location.address) ? location.address : undefined;
  const points = Array.isArray(address?.gisCoordinates) ? address.gisCoordinates : undefined;
  if (!address || !points) return location;
  const { gisCoordinates: _points, ...addressRest } = address;
  const first = isObject(points[0]) ? points[0] : {};
  return {
    ...location,
    address: addressRest,
    ...(typeof first.xcoordinate === 'string' ? { xcoordinate: first.xcoordinate } : {}),
    ...(typeof first.ycoordinate === 'string' ? { ycoordinate: first.ycoordinate } : {}),
  };
}

/** An item in this vendor's shapes (the same item when it has none of ours). */
export function oldShapes(item: Item): Item {
  const out: Json = { ...item };
  if (isObject(out.contactinfo)) out.contactinfo = oldContactinfo(out.contactinfo);
  if (Array.isArray(out.files)) out.files = out.files.map(oldFile);
  if (isObject(out.calendar) && out.calendar.calendarType === 'ALWAYSOPEN')
    out.calendar = { ...out.calendar, calendarType: 'ALWAYS' };
  if (isObject(out.location)) out.location = oldLocation(out.location);
  return JSON.stringify(out) === JSON.stringify(item) ? item : (out as Item);
}

export function preModelShapes(): FaultModifier {
  return {
    name: 'preModelShapes',
    response: (res) => mapItems(res, oldShapes),
  };
}
