// Fault: the service caches the labels of an item's categories when it first serves them, so an
// ontology rename does not show on existing items (breaks ONTO-006; a category removed from the
// ontology keeps its cached labels too, ONTO-007).

import type { FaultModifier } from '../faultProxy.ts';
import { mapCategoryEntries } from '../traffic.ts';

export function staleLabelCache(): FaultModifier {
  const cache = new Map<string, unknown>();
  return {
    name: 'staleLabelCache',
    response: (res) =>
      mapCategoryEntries(res, (e, item) => {
        const key = `${String(item.trcid ?? item.id)}|${String(e.catid)}`;
        if (!cache.has(key)) {
          cache.set(key, e.categoryTranslations);
          return e;
        }
        const cached = cache.get(key);
        return JSON.stringify(cached) === JSON.stringify(e.categoryTranslations)
          ? e
          : { ...e, categoryTranslations: cached };
      }),
  };
}
