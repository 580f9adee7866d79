// Fault: lastupdated stays at the creation time when a venue is updated; events and the other
// entity types are right (breaks ITEM-006 on one collection only).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function lastupdatedFrozenOnVenues(): FaultModifier {
  return {
    name: 'lastupdatedFrozenOnVenues',
    response(res) {
      return mapItems(res, (item) =>
        item.entitytype === 'VENUE' && typeof item.creationdate === 'string' && item.lastupdated !== item.creationdate
          ? { ...item, lastupdated: item.creationdate }
          : item,
      );
    },
  };
}
