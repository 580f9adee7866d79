// Fault: a type or category whose catid the ontology does not know gets its catid as a label in
// the item's primary language instead of no translations (breaks ONTO-007).

import type { FaultModifier } from '../faultProxy.ts';
import type { CategoryEntry, Item } from '../traffic.ts';
import { mapCategoryEntries } from '../traffic.ts';

function labelled(e: CategoryEntry, item: Item): CategoryEntry {
  const t = e.categoryTranslations;
  if (Array.isArray(t) && t.length > 0) return e;
  const lang = (item.translations as { primaryLanguage?: string } | undefined)?.primaryLanguage ?? 'nl';
  return { ...e, categoryTranslations: [{ lang, label: String(e.catid) }] };
}

export function unknownCatidLabelled(): FaultModifier {
  return {
    name: 'unknownCatidLabelled',
    response: (res) => mapCategoryEntries(mapCategoryEntries(res, labelled, 'types'), labelled),
  };
}
