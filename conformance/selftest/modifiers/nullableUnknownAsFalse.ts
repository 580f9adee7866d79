// Fault: a nullableyesno category stored as unknown (null) reads "False", as if the service's
// column were a plain boolean (breaks DT-003).

import type { FaultModifier } from '../faultProxy.ts';
import { datatypeFault } from '../traffic.ts';

export function nullableUnknownAsFalse(): FaultModifier {
  return datatypeFault('nullableUnknownAsFalse', 'nullableyesno', (e) =>
    e.value === null || e.value === undefined ? { ...e, value: 'False' } : e,
  );
}
