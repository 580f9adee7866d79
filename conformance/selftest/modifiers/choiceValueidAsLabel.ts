// Fault: a choice category's valueid carries the option's Dutch label instead of the option id
// (breaks ONTO-014; the choice datatype's valueid, DT-004, with it).

import type { FaultModifier } from '../faultProxy.ts';
import { datatypeFault } from '../traffic.ts';

export function choiceValueidAsLabel(): FaultModifier {
  return datatypeFault('choiceValueidAsLabel', 'choice', (e) =>
    typeof e.value === 'string' && e.valueid !== e.value ? { ...e, valueid: e.value } : e,
  );
}
