// Fault: a date category's value is written dd-mm-yyyy instead of an ISO date (breaks DT-009).

import type { FaultModifier } from '../faultProxy.ts';
import { datatypeFault } from '../traffic.ts';

export function dateInDutchFormat(): FaultModifier {
  return datatypeFault('dateInDutchFormat', 'date', (e) => {
    const m = typeof e.value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(e.value) : null;
    return m ? { ...e, value: `${m[3]}-${m[2]}-${m[1]}` } : e;
  });
}
