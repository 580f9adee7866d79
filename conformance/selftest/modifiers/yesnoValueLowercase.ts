// Fault: a yesno category carries "true"/"false" as sent instead of the normalised "True" /
// "False" (breaks DT-002).

import type { FaultModifier } from '../faultProxy.ts';
import { datatypeFault } from '../traffic.ts';

export function yesnoValueLowercase(): FaultModifier {
  return datatypeFault('yesnoValueLowercase', 'yesno', (e) =>
    typeof e.value === 'string' && /^(True|False)$/.test(e.value) ? { ...e, value: e.value.toLowerCase() } : e,
  );
}
