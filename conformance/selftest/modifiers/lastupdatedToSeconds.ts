// Fault: lastupdated is answered cut to whole seconds while the lastupdated filter compares the
// stored milliseconds, so passing the last item's lastupdated does not continue the list after it
// (breaks PAGE-003: keyset paging continues from the last item's lastupdated).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function lastupdatedToSeconds(): FaultModifier {
  return {
    name: 'lastupdatedToSeconds',
    response(res) {
      return mapItems(res, (item) => {
        const at = Date.parse(String(item.lastupdated));
        if (Number.isNaN(at) || at % 1000 === 0) return item;
        return { ...item, lastupdated: new Date(at - (at % 1000)).toISOString() };
      });
    },
  };
}
