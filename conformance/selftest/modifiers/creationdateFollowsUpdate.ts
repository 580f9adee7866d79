// Fault: creationdate is overwritten on every save, so it always equals lastupdated (breaks
// ITEM-005: creationdate is set by the server once, when the item is created).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function creationdateFollowsUpdate(): FaultModifier {
  return {
    name: 'creationdateFollowsUpdate',
    response(res) {
      return mapItems(res, (item) =>
        typeof item.lastupdated === 'string' && item.creationdate !== item.lastupdated
          ? { ...item, creationdate: item.lastupdated }
          : item,
      );
    },
  };
}
