// Fault: a data category keeps its HTML: the service stores the value as sent instead of
// stripping the tags (breaks DT-010). The proxy puts a paragraph tag around the stripped text.

import type { FaultModifier } from '../faultProxy.ts';
import { datatypeFault } from '../traffic.ts';

export function dataHtmlKept(): FaultModifier {
  return datatypeFault('dataHtmlKept', 'data', (e) =>
    typeof e.value === 'string' && !/<\/?[a-z][^>]*>/i.test(e.value) ? { ...e, value: `<p>${e.value}</p>` } : e,
  );
}
