// Fault: an integer category is stored as a floating-point number and read back with decimals
// ("42.0"), no longer a whole number (breaks DT-007).

import type { FaultModifier } from '../faultProxy.ts';
import { datatypeFault } from '../traffic.ts';

export function integerWithDecimals(): FaultModifier {
  return datatypeFault('integerWithDecimals', 'integer', (e) =>
    typeof e.value === 'string' && /^-?\d+$/.test(e.value) ? { ...e, value: `${e.value}.0` } : e,
  );
}
