// Conforming variation: a vendor whose answers follow the operator's model where it differs from
// our spec and the interface is silent: each item also carries the model's lower-case `externalid`
// (beside the interface's `externalId`), and the label entries of its types carry the model's
// `value` member, which a type has no use for (tests/contract/operator-model/deviations.yaml).

import { isObject } from '../../../spec/json.ts';
import type { FaultModifier } from '../faultProxy.ts';
import { mapItems, type Item } from '../traffic.ts';

type Json = Record<string, unknown>;

function typeWithValues(type: unknown): unknown {
  if (!isObject(type) || !Array.isArray(type.categoryTranslations)) return type;
  return {
    ...type,
    categoryTranslations: type.categoryTranslations.map((t: unknown) =>
      isObject(t) && typeof t.label === 'string' ? { ...t, value: t.label } : t,
    ),
  };
}

function operatorSpelled(item: Item): Item {
  const out: Json = { ...item, externalid: typeof item.externalId === 'string' ? item.externalId : '' };
  const categories = item.trcItemCategories;
  if (isObject(categories) && Array.isArray(categories.types))
    out.trcItemCategories = { ...categories, types: categories.types.map(typeWithValues) };
  return out as Item;
}

export function operatorSpellings(): FaultModifier {
  return { name: 'operatorSpellings', response: (res) => mapItems(res, operatorSpelled) };
}
