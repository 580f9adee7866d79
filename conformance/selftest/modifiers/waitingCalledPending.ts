// Fault: items waiting for validation are answered with a status of the vendor's own, pending,
// instead of readyforvalidation (breaks WF-002: wfstatus is one of the interface's statuses).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function waitingCalledPending(): FaultModifier {
  return {
    name: 'waitingCalledPending',
    response(res) {
      return mapItems(res, (item) =>
        item.wfstatus === 'readyforvalidation' ? { ...item, wfstatus: 'pending' } : item,
      );
    },
  };
}
