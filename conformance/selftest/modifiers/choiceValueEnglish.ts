// Fault: a choice category's value is filled with the option's English label instead of its
// Dutch one (breaks DT-004).

import type { FaultModifier } from '../faultProxy.ts';
import { datatypeFault } from '../traffic.ts';

type Label = { lang?: string; label?: string };

export function choiceValueEnglish(): FaultModifier {
  return datatypeFault('choiceValueEnglish', 'choice', (e) => {
    const en = (e.valueCategoryTranslations as Label[] | undefined)?.find((l) => l.lang === 'en')?.label;
    return en !== undefined && en !== e.value ? { ...e, value: en } : e;
  });
}
