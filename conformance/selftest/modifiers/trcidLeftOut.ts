// Fault: answers leave trcid out (breaks ITEM-003: trcid is always present in responses).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function trcidLeftOut(): FaultModifier {
  return {
    name: 'trcidLeftOut',
    response(res) {
      return mapItems(res, (item) => {
        if (!('trcid' in item)) return item;
        const { trcid: _dropped, ...rest } = item;
        return rest;
      });
    },
  };
}
