// Fault: a venue's rooms are answered in a root field `rooms` of their own instead of as
// subItemGroups inside trcitemRelation (breaks ITEM-015 and ITEM-025).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function roomsOutsideRelation(): FaultModifier {
  return {
    name: 'roomsOutsideRelation',
    response(res) {
      return mapItems(res, (item) => {
        const relation = item.trcitemRelation as Record<string, unknown> | undefined;
        if (item.entitytype !== 'VENUE' || relation?.subItemGroups === undefined) return item;
        const { subItemGroups, ...links } = relation;
        return { ...item, trcitemRelation: links, rooms: subItemGroups };
      });
    },
  };
}
