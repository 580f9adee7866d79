// Conforming variation: a vendor whose answers follow the operator's model where it differs from
// our spec and the interface is silent: each item also carries the model's lower-case `externalid`
// (beside the interface's `externalId`), the label entries of its types carry the model's
// `value` member, which a type has no use for (tests/contract/operator-model/deviations.yaml), and
// it fills the label members we declare and leave empty (DEC-ITEM-175): every label names the
// `catid` it labels, and each category carries the labels of its parent in the ontology.

import { isObject } from '../../../spec/json.ts';
import type { FaultModifier } from '../faultProxy.ts';
import { mapItems, type Item } from '../traffic.ts';

type Json = Record<string, unknown>;

/** `labels` with each entry naming `catid`; anything but a list of label objects as it is. */
const labelledBy = (labels: unknown, catid: unknown, extra: (t: Json) => Json = () => ({})): unknown =>
  Array.isArray(labels) && typeof catid === 'string'
    ? labels.map((t: unknown) => (isObject(t) ? { ...t, catid, ...extra(t) } : t))
    : labels;

function typeWithValues(type: unknown): unknown {
  if (!isObject(type) || !Array.isArray(type.categoryTranslations)) return type;
  return {
    ...type,
    categoryTranslations: labelledBy(type.categoryTranslations, type.catid, (t) =>
      typeof t.label === 'string' ? { value: t.label } : {},
    ),
  };
}

function categoryWithLabelIds(category: unknown): unknown {
  if (!isObject(category) || typeof category.catid !== 'string' || !Array.isArray(category.categoryTranslations))
    return category;
  const parent = `${category.catid}-group`;
  return {
    ...category,
    categoryTranslations: labelledBy(category.categoryTranslations, category.catid),
    parentCategoryTranslations: category.categoryTranslations.filter(isObject).map((t) => ({
      catid: parent,
      lang: t.lang,
      label: `${String(t.label ?? '')} (group)`,
    })),
    ...(category.valueCategoryTranslations === undefined
      ? {}
      : { valueCategoryTranslations: labelledBy(category.valueCategoryTranslations, category.valueid) }),
  };
}

function operatorSpelled(item: Item): Item {
  const out: Json = { ...item, externalid: typeof item.externalId === 'string' ? item.externalId : '' };
  const categories = item.trcItemCategories;
  if (isObject(categories))
    out.trcItemCategories = {
      ...categories,
      ...(Array.isArray(categories.types) ? { types: categories.types.map(typeWithValues) } : {}),
      ...(Array.isArray(categories.categories) ? { categories: categories.categories.map(categoryWithLabelIds) } : {}),
    };
  return out as Item;
}

export function operatorSpellings(): FaultModifier {
  return { name: 'operatorSpellings', response: (res) => mapItems(res, operatorSpelled) };
}
