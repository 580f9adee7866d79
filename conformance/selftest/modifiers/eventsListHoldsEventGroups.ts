// Fault: the events list also holds the event groups, as one "events" table would (breaks
// ITEM-028: a collection holds only its own entity type). The proxy appends the first event
// groups the same token may see.

import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import { listCollection, mapList, urlOf } from '../traffic.ts';

export function eventsListHoldsEventGroups(): FaultModifier {
  return {
    name: 'eventsListHoldsEventGroups',
    async response(res, req, tools) {
      if (listCollection(req) !== 'events' || res.status !== 200) return res;
      const url = urlOf(req);
      const groups = await tools.upstream({ ...req, url: `${url.pathname.replace(/events$/, 'eventgroups')}?size=5` });
      const extra = readJson(groups.body);
      if (groups.status !== 200 || !Array.isArray(extra) || extra.length === 0) return res;
      return mapList(res, (items) => [...items, ...(extra as typeof items)]);
    },
  };
}
