// Conforming variation: the vendor of preModelShapes, strict on write as our reference is with
// shapes it does not know (DEC-ITEM-005): a write that carries the model's shapes where it keeps
// its own is a 400 naming the field.

import { isObject } from '../../../spec/json.ts';
import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { COLLECTIONS, mapItems, urlOf } from '../traffic.ts';
import { oldShapes } from './preModelShapes.ts';

type Json = Record<string, unknown>;

/** The model's shapes in a written item, each turned into this vendor's own form (which the reference refuses). */
function ownFormsOnWrite(item: Json): Json | undefined {
  const out: Json = { ...item };
  const contact = isObject(out.contactinfo) ? out.contactinfo : undefined;
  if (contact && isObject(contact.mail)) out.contactinfo = { ...contact, mail: [contact.mail] };
  if (Array.isArray(out.files) && out.files.some((f) => isObject(f) && isObject(f.title)))
    out.files = out.files.map((f) =>
      isObject(f) && isObject(f.title) ? { ...f, title: String(f.title.label ?? '') } : f,
    );
  if (isObject(out.calendar) && String(out.calendar.calendarType).toUpperCase() === 'ALWAYSOPEN')
    out.calendar = { ...out.calendar, calendarType: 'ALWAYS' };
  const location = isObject(out.location) ? out.location : undefined;
  if (location && isObject(location.address) && 'gisCoordinates' in location.address)
    out.location = { ...location, address: { ...location.address, gisCoordinates: 'not a list here' } };
  return JSON.stringify(out) === JSON.stringify(item) ? undefined : out;
}

const WRITE_RE = new RegExp(`/(${COLLECTIONS.join('|')})(/[^/]+)?$`);

/** The proxy turns the model's shapes into the forms the reference refuses: the 400 is the reference's own. */
export function preModelShapesStrict(): FaultModifier {
  return {
    name: 'preModelShapesStrict',
    request: (req) => {
      if ((req.method !== 'POST' && req.method !== 'PUT') || !WRITE_RE.test(urlOf(req).pathname)) return req;
      const body = readJson(req.body);
      const own = isObject(body) ? ownFormsOnWrite(body) : undefined;
      return own ? { ...req, body: jsonBody(own) } : req;
    },
    response: (res) => mapItems(res, oldShapes),
  };
}
