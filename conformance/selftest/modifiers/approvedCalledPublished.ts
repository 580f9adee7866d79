// Fault: approved items are answered with a status named published (breaks WF-003: approved is
// the only status that means published; there is no status named published).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function approvedCalledPublished(): FaultModifier {
  return {
    name: 'approvedCalledPublished',
    response(res) {
      return mapItems(res, (item) => (item.wfstatus === 'approved' ? { ...item, wfstatus: 'published' } : item));
    },
  };
}
