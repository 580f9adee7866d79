// Fault: labels are filled in on detail reads only; list reads serve the stored ids without
// their translations (breaks ONTO-001: labels are filled in on every read).

import type { FaultModifier } from '../faultProxy.ts';
import type { CategoryEntry } from '../traffic.ts';
import { listCollection, mapCategoryEntries } from '../traffic.ts';

function bare(e: CategoryEntry): CategoryEntry {
  if (e.categoryTranslations === undefined && e.valueCategoryTranslations === undefined) return e;
  const { categoryTranslations: _t, valueCategoryTranslations: _v, ...rest } = e;
  return rest;
}

export function labelsOnlyOnDetail(): FaultModifier {
  return {
    name: 'labelsOnlyOnDetail',
    response(res, req) {
      if (!listCollection(req)) return res;
      return mapCategoryEntries(mapCategoryEntries(res, bare, 'types'), bare);
    },
  };
}
