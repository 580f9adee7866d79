// Fault: lastupdated is set when the item is created and never again, so an update does not move
// it forward and an incremental sync misses the change (breaks ITEM-006).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function lastupdatedFrozen(): FaultModifier {
  return {
    name: 'lastupdatedFrozen',
    response(res) {
      return mapItems(res, (item) =>
        typeof item.creationdate === 'string' && item.lastupdated !== item.creationdate
          ? { ...item, lastupdated: item.creationdate }
          : item,
      );
    },
  };
}
