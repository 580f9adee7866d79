// Fault: a freetext category keeps only its per-language values; its value is lost (breaks
// DT-006).

import type { FaultModifier } from '../faultProxy.ts';
import { datatypeFault } from '../traffic.ts';

export function freetextValueDropped(): FaultModifier {
  return datatypeFault('freetextValueDropped', 'freetext', (e) => {
    if (typeof e.value !== 'string') return e;
    const { value: _lost, ...rest } = e;
    return rest;
  });
}
