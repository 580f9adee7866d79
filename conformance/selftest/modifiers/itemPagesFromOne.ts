// Conforming variation: the item lists count `page` from 1 ("how `page` combines with `size`: not
// shown"; our DEC-LIST-002 counts from 0). Page 0 is refused; the proxy shifts the others down.

import type { FaultModifier } from '../faultProxy.ts';
import { listCollection, pageFromOne } from '../traffic.ts';

export function itemPagesFromOne(): FaultModifier {
  return {
    name: 'itemPagesFromOne',
    request: (req) => (listCollection(req) ? pageFromOne(req) : req),
  };
}
