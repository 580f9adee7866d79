// Fault: items come without their entitytype (breaks ITEM-004; every such answer also fails
// the spec's response schema, which needs it to pick the item's kind).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function dropEntitytype(): FaultModifier {
  return {
    name: 'dropEntitytype',
    response(res) {
      return mapItems(res, (item) => {
        if (!('entitytype' in item)) return item;
        const { entitytype: _dropped, ...rest } = item;
        return rest;
      });
    },
  };
}
