// Fault: type and category labels are filled in for the item's primary language only, not for
// its other available languages (breaks ONTO-004).

import type { FaultModifier } from '../faultProxy.ts';
import type { CategoryEntry, Item } from '../traffic.ts';
import { mapCategoryEntries } from '../traffic.ts';

type Label = { lang?: string };

function primaryOnly(e: CategoryEntry, item: Item): CategoryEntry {
  const primary = (item.translations as { primaryLanguage?: string } | undefined)?.primaryLanguage;
  const t = e.categoryTranslations as Label[] | undefined;
  if (!primary || !Array.isArray(t) || t.every((l) => l.lang === primary)) return e;
  return { ...e, categoryTranslations: t.filter((l) => l.lang === primary) };
}

export function labelsPrimaryLanguageOnly(): FaultModifier {
  return {
    name: 'labelsPrimaryLanguageOnly',
    response: (res) => mapCategoryEntries(mapCategoryEntries(res, primaryOnly, 'types'), primaryOnly),
  };
}
