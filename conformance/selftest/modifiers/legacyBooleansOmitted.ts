// Fault: the deprecated booleans published, deleted and offline are no longer returned (breaks
// ITEM-017: they are derived from wfstatus and returned for compatibility).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function legacyBooleansOmitted(): FaultModifier {
  return {
    name: 'legacyBooleansOmitted',
    response(res) {
      return mapItems(res, (item) => {
        if (!('published' in item || 'deleted' in item || 'offline' in item)) return item;
        const { published: _p, deleted: _d, offline: _o, ...rest } = item;
        return rest;
      });
    },
  };
}
