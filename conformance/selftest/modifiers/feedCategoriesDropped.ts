// Fault: on feed input the service keeps no category it has to map from text: feed items come
// without their categories (breaks ONTO-009: a plain-text category without catid is mapped to a
// category id). The proxy drops the categories of items that carry an externalId (feed items).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function feedCategoriesDropped(): FaultModifier {
  return {
    name: 'feedCategoriesDropped',
    response(res) {
      return mapItems(res, (item) => {
        const tc = item.trcItemCategories as { categories?: unknown[] } | undefined;
        if (typeof item.externalId !== 'string' || !tc?.categories?.length) return item;
        return { ...item, trcItemCategories: { ...tc, categories: [] } };
      });
    },
  };
}
