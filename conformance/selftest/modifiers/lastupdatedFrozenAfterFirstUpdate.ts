// Fault: the first update of an item moves lastupdated, later ones do not, so an incremental sync
// misses every change after the first (breaks ITEM-006 on its second occurrence only).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function lastupdatedFrozenAfterFirstUpdate(): FaultModifier {
  /** Per item: the lastupdated of its first update, answered for every later one. */
  const firstUpdate = new Map<string, string>();
  return {
    name: 'lastupdatedFrozenAfterFirstUpdate',
    response(res) {
      return mapItems(res, (item) => {
        const key = String(item.trcid);
        if (typeof item.lastupdated !== 'string' || item.lastupdated === item.creationdate) return item;
        const first = firstUpdate.get(key);
        if (first === undefined) {
          firstUpdate.set(key, item.lastupdated);
          return item;
        }
        return item.lastupdated === first ? item : { ...item, lastupdated: first };
      });
    },
  };
}
