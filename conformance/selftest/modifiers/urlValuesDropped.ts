// Fault: a url category loses its per-language URLs: categoryTranslations[] keep the labels but
// not their values (breaks DT-011).

import type { FaultModifier } from '../faultProxy.ts';
import { datatypeFault } from '../traffic.ts';

type Translation = { value?: unknown };

export function urlValuesDropped(): FaultModifier {
  return datatypeFault('urlValuesDropped', 'url', (e) => {
    const t = e.categoryTranslations as Translation[] | undefined;
    if (!t?.some((l) => l.value !== undefined)) return e;
    return { ...e, categoryTranslations: t.map(({ value: _lost, ...rest }) => rest) };
  });
}
