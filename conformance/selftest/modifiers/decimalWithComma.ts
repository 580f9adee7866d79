// Fault: a decimal category's value is formatted the Dutch way, with a decimal comma ("2,5"),
// so it no longer parses as a decimal number (breaks DT-008).

import type { FaultModifier } from '../faultProxy.ts';
import { datatypeFault } from '../traffic.ts';

export function decimalWithComma(): FaultModifier {
  return datatypeFault('decimalWithComma', 'decimal', (e) =>
    typeof e.value === 'string' && /^-?\d+\.\d+$/.test(e.value) ? { ...e, value: e.value.replace('.', ',') } : e,
  );
}
