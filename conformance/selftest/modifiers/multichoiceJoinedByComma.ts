// Fault: a multichoice category's value joins the Dutch option labels with "," instead of ";"
// (breaks DT-005).

import type { FaultModifier } from '../faultProxy.ts';
import { datatypeFault } from '../traffic.ts';

export function multichoiceJoinedByComma(): FaultModifier {
  return datatypeFault('multichoiceJoinedByComma', 'multichoice', (e) =>
    typeof e.value === 'string' && e.value.includes(';') ? { ...e, value: e.value.replaceAll(';', ',') } : e,
  );
}
