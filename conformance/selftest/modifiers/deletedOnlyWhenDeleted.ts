// Fault: the legacy `deleted` boolean is true only for wfstatus deleted, as if it meant "removed",
// instead of for every status but approved (breaks WF-012: deleted: true means only not approved).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function deletedOnlyWhenDeleted(): FaultModifier {
  return {
    name: 'deletedOnlyWhenDeleted',
    response(res) {
      return mapItems(res, (item) => {
        const deleted = item.wfstatus === 'deleted';
        return typeof item.deleted === 'boolean' && item.deleted !== deleted ? { ...item, deleted } : item;
      });
    },
  };
}
