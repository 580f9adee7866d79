// Fault: consumers' lists come from an index rebuilt only now and then, so an item approved since
// the last rebuild is missing from them (breaks WF-001: approved items are visible to consumers as
// live items). Items created in the last hour stand for "since the last rebuild".

import type { FaultModifier } from '../faultProxy.ts';
import { bearerOf, listCollection, mapList } from '../traffic.ts';

const REBUILT_MS = 60 * 60_000;

export function consumerListsStale(consumer: string): FaultModifier {
  return {
    name: 'consumerListsStale',
    response(res, req) {
      if (!listCollection(req) || bearerOf(req) !== consumer) return res;
      const fresh = (i: Record<string, unknown>) => Date.now() - Date.parse(String(i.creationdate)) < REBUILT_MS;
      return mapList(res, (items) => (items.some(fresh) ? items.filter((i) => !fresh(i)) : undefined));
    },
  };
}
