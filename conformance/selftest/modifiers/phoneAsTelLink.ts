// Fault: a phone category's value is a tel: link instead of the number (breaks DT-013).

import type { FaultModifier } from '../faultProxy.ts';
import { datatypeFault } from '../traffic.ts';

export function phoneAsTelLink(): FaultModifier {
  return datatypeFault('phoneAsTelLink', 'phone', (e) =>
    typeof e.value === 'string' && !e.value.startsWith('tel:')
      ? { ...e, value: `tel:${e.value.replaceAll(' ', '')}` }
      : e,
  );
}
