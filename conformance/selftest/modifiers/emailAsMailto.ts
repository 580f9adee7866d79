// Fault: an email category's value is a mailto: link instead of the address (breaks DT-012).

import type { FaultModifier } from '../faultProxy.ts';
import { datatypeFault } from '../traffic.ts';

export function emailAsMailto(): FaultModifier {
  return datatypeFault('emailAsMailto', 'email', (e) =>
    typeof e.value === 'string' && !e.value.startsWith('mailto:') ? { ...e, value: `mailto:${e.value}` } : e,
  );
}
