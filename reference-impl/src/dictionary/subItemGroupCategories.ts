import { fillItemCategories } from './fillItemCategories.ts';
import type { OntologyIndexes, PropertyIndex } from './indexes.ts';
import { stripCategoriesForWrite } from './stripCategoriesForWrite.ts';
import type { StoredCategories } from '../domain/ontology.ts';
import { isObject } from '../../../spec/json.ts';

// @implements ITEM-015, ITEM-025
// The parts of an item in `trcitemRelation.subItemGroups` (a venue's rooms, DEC-ITEM-151) carry a
// `type` and `categories` as the item's trcItemCategories do: stored as ids and values by the same
// rules, labelled on every read from the owner's ontologies in force then. Their other fields are
// kept as written.

type Loose = Record<string, unknown>;

/** The document as stored: its trcItemCategories and every sub-item group's type and categories. */
export function withStoredCategories(doc: Readonly<Loose>, properties?: PropertyIndex): Loose {
  const out: Loose = { ...doc };
  if (doc.trcItemCategories !== undefined)
    out.trcItemCategories = stripCategoriesForWrite(doc.trcItemCategories, properties);
  const relation = doc.trcitemRelation;
  if (isObject(relation) && Array.isArray(relation.subItemGroups)) {
    out.trcitemRelation = {
      ...relation,
      subItemGroups: relation.subItemGroups.map((group) => (isObject(group) ? storedGroup(group, properties) : group)),
    };
  }
  return out;
}

/** `trcitemRelation` as read: every sub-item group's type and categories filled in. */
export function filledSubItemGroups(relation: Loose, ontologies: OntologyIndexes, languages: readonly string[]): Loose {
  if (!Array.isArray(relation.subItemGroups)) return relation;
  return {
    ...relation,
    subItemGroups: relation.subItemGroups.map((group) => {
      if (!isObject(group)) return group;
      const filled = fillItemCategories(asCategories(group), ontologies, languages);
      return withCategoriesOf(group, filled);
    }),
  };
}

function storedGroup(group: Loose, properties: PropertyIndex | undefined): Loose {
  return withCategoriesOf(group, stripCategoriesForWrite(asCategories(group), properties));
}

/** A group's type and categories in the shape of trcItemCategories. */
function asCategories(group: Loose): Partial<StoredCategories> {
  return {
    types: (group.type === undefined ? [] : [group.type]) as StoredCategories['types'],
    categories: (Array.isArray(group.categories) ? group.categories : []) as StoredCategories['categories'],
  };
}

/** The group with the type and categories of `categories`, each only where the group has one. */
function withCategoriesOf(group: Loose, categories: { types: unknown[]; categories: unknown[] }): Loose {
  const out: Loose = { ...group };
  if (group.type !== undefined) {
    if (categories.types[0] === undefined) delete out.type;
    else out.type = categories.types[0];
  }
  if (group.categories !== undefined) out.categories = categories.categories;
  return out;
}
