// Fault: the service stores a field an item of this collection must not have and shows it on
// every read (priceElements on a location breaks ITEM-011 and ITEM-024; promotions on a venue
// ITEM-012; performers on a route ITEM-013; routeInfo on an event ITEM-014; a child link on a
// location ITEM-024; isprivate on write ITEM-018). The proxy keeps the field away from the target
// (which would refuse or drop it) and adds it to the answers about that item.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { mapItems, urlOf } from '../traffic.ts';

export function keepsForbiddenField(collection: string, field: string): FaultModifier {
  const stored = new Map<string, unknown>();
  const writes = new RegExp(`^(?:/api)?${collection}(?:/[^/]+)?$`);
  return {
    name: `keepsForbiddenField(${collection}.${field})`,
    request(req) {
      if ((req.method !== 'POST' && req.method !== 'PUT') || !writes.test(urlOf(req).pathname)) return req;
      const body = readJson(req.body) as Record<string, unknown> | undefined;
      if (typeof body?.trcid !== 'string' || !(field in body)) return req;
      const { [field]: value, ...rest } = body;
      stored.set(body.trcid, value);
      return { ...req, body: jsonBody(rest) };
    },
    response(res) {
      return mapItems(res, (item) => {
        const value = stored.get(String(item.trcid));
        return value === undefined || item[field] !== undefined ? item : { ...item, [field]: value };
      });
    },
  };
}
