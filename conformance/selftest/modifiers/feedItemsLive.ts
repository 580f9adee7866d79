// Fault: an item a feed brought in goes live at once, without an editor's approval (breaks
// WF-006): every feed item (one with an externalId) waiting in readyforvalidation is answered as
// approved and published.

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function feedItemsLive(): FaultModifier {
  return {
    name: 'feedItemsLive',
    response(res) {
      return mapItems(res, (item) =>
        typeof item.externalId === 'string' && item.wfstatus === 'readyforvalidation'
          ? { ...item, wfstatus: 'approved', published: true, deleted: false, offline: false }
          : item,
      );
    },
  };
}
