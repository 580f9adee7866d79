// Fault: a category of datatype yes carries "true"/"false" instead of the normalised "True" /
// "False" (breaks DT-001).

import type { FaultModifier } from '../faultProxy.ts';
import type { Item } from '../traffic.ts';
import { mapItems } from '../traffic.ts';

type Category = { datatype?: unknown; value?: unknown };

export function yesValueLowercase(): FaultModifier {
  return {
    name: 'yesValueLowercase',
    response(res) {
      return mapItems(res, (item: Item) => {
        const cats = item.trcItemCategories as { categories?: Category[] } | undefined;
        if (
          !cats?.categories?.some(
            (c) => c.datatype === 'yes' && typeof c.value === 'string' && /^(True|False)$/.test(c.value),
          )
        )
          return item;
        const categories = cats.categories.map((c) =>
          c.datatype === 'yes' && typeof c.value === 'string' ? { ...c, value: c.value.toLowerCase() } : c,
        );
        return { ...item, trcItemCategories: { ...cats, categories } };
      });
    },
  };
}
