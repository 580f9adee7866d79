// Fault: event groups still come as entitytype EVENEMENTGROEP, the name before May 2025 (breaks
// VER-002: it was renamed EVENTGROUP).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function legacyEventGroupType(): FaultModifier {
  return {
    name: 'legacyEventGroupType',
    response(res) {
      return mapItems(res, (item) =>
        item.entitytype === 'EVENTGROUP' ? { ...item, entitytype: 'EVENEMENTGROEP' } : item,
      );
    },
  };
}
