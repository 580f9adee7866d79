// Fault: type labels are not the ontology's (e.g. stored at write time and never refreshed, or
// from another account's ontology): every type label reads differently (breaks ONTO-002).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

type Type = { categoryTranslations?: { lang?: string; label?: string }[] };

export function staleOntologyLabels(): FaultModifier {
  return {
    name: 'staleOntologyLabels',
    response(res) {
      return mapItems(res, (item) => {
        const cats = item.trcItemCategories as { types?: Type[] } | undefined;
        if (!cats?.types?.some((t) => t.categoryTranslations?.length)) return item;
        const types = cats.types.map((t) => ({
          ...t,
          categoryTranslations: t.categoryTranslations?.map((l) => ({ ...l, label: `${l.label ?? ''} (stale)` })),
        }));
        return { ...item, trcItemCategories: { ...cats, types } };
      });
    },
  };
}
