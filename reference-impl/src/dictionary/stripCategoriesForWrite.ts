import type { PropertyIndex } from './indexes.ts';
import { valueAsString } from './normaliseValue.ts';
import { stripHtml } from './stripHtml.ts';
import type { StoredCategories, StoredCategory, StoredType } from '../domain/ontology.ts';
import { isObject } from '../../../spec/json.ts';

// @implements ONTO-005
// Write side of trcItemCategories: what is persisted (ONTO-004). Only ids, the value and the
// per-language values of freetext/url survive; every label, `datatype` and
// `valueCategoryTranslations` sent is dropped (ONTO-005, DEC-ITEM-005), so the next read fills
// them in from the ontology in force then. Values are kept as sent (normalising happens on read),
// except that with the ontology at hand HTML is stripped from `data` values before storing: HTML
// never reaches storage, and reads of the plain text take stripHtml's fast path.

type Loose = Record<string, unknown>;

const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';

function stripType(entry: Loose): StoredType | undefined {
  if (!nonEmptyString(entry.catid)) return undefined;
  return { catid: entry.catid, isDefault: entry.isDefault === true };
}

function stripCategory(entry: Loose, properties: PropertyIndex | undefined): StoredCategory | undefined {
  if (!nonEmptyString(entry.catid)) return undefined;
  const stored: StoredCategory = { catid: entry.catid };
  const datatype = properties?.properties.get(entry.catid)?.property.datatype;
  if (entry.value !== undefined) {
    const value = valueAsString(entry.value);
    stored.value = datatype === 'data' && value !== null ? stripHtml(value) : value;
  }
  if (nonEmptyString(entry.valueid)) stored.valueid = entry.valueid;
  if (Array.isArray(entry.categoryvalues)) {
    stored.categoryvalues = entry.categoryvalues
      .filter(isObject)
      .map((v) => v.catid)
      .filter(nonEmptyString)
      .map((catid) => ({ catid }));
  }
  // Per-language values matter only for freetext and url; when the ontology is at hand, the values
  // of other properties are not kept at all (CategoryTranslation in the spec).
  const keepsValues = datatype === undefined || datatype === 'freetext' || datatype === 'url';
  if (keepsValues && Array.isArray(entry.categoryTranslations)) {
    const values = entry.categoryTranslations.filter(isObject).flatMap((t) => {
      const value = valueAsString(t.value);
      return nonEmptyString(t.lang) && value !== null ? [{ lang: t.lang, value }] : [];
    });
    if (values.length > 0) stored.categoryTranslations = values;
  }
  return stored;
}

/**
 * The part of a written `trcItemCategories` that is stored. Entries without a `catid` are left out:
 * a feed maps plain-text values to ids first (mapFeedCategories). `properties`, when given, is the
 * owner's property ontology: per-language values of non-freetext/url properties are then dropped
 * and `data` values stripped of HTML. Pass it on every write where it is at hand.
 */
export function stripCategoriesForWrite(trcItemCategories: unknown, properties?: PropertyIndex): StoredCategories {
  const input = isObject(trcItemCategories) ? trcItemCategories : {};
  const list = (value: unknown): Loose[] => (Array.isArray(value) ? value.filter(isObject) : []);
  const stored: StoredCategories = {
    types: list(input.types).flatMap((t) => stripType(t) ?? []),
    categories: list(input.categories).flatMap((c) => stripCategory(c, properties) ?? []),
  };
  // Stored as written (DEC-ITEM-174).
  if (typeof input.soldout === 'boolean') stored.soldout = input.soldout;
  if (typeof input.canceled === 'boolean') stored.canceled = input.canceled;
  return stored;
}
