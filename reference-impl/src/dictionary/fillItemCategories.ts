import { labelIn, type IndexedOption, type Labels, type OntologyIndexes } from './indexes.ts';
import { normaliseValue } from './normaliseValue.ts';
import type {
  FilledCategories,
  FilledCategory,
  FilledCategoryTranslation,
  FilledCategoryValue,
  FilledType,
  LabelTranslation,
  StoredCategories,
  StoredCategory,
  StoredType,
} from '../domain/ontology.ts';

// @implements ONTO-001, ONTO-007
// Read side of trcItemCategories (ONTO-001..008, DT-001..013, DEC-DICT-006/008): the stored ids
// and values plus every label, from the ontology of the account owning the item, in force now.
// Nothing here is stored, so a rename shows at once and an id the ontology lost (or never had)
// comes back exactly as stored, without labels and without datatype (ONTO-007).

const labelsFor = (labels: Labels, languages: readonly string[]): LabelTranslation[] =>
  languages.map((lang) => ({ lang, label: labelIn(labels, lang) }));

function fillType(stored: StoredType, ontologies: OntologyIndexes, languages: readonly string[]): FilledType {
  const known = ontologies.types.byCnetId.get(stored.catid);
  const filled: FilledType = { catid: stored.catid, isDefault: stored.isDefault === true };
  if (known) filled.categoryTranslations = labelsFor(known.labels, languages);
  return filled;
}

/**
 * An id unknown to the ontology reads back with its stored ids and value only: no labels, no
 * datatype, no normalisation (nothing says how). Stored per-language values stay stored but are
 * not shown: without the property they are not known to be freetext or url.
 */
function asStored(stored: StoredCategory): FilledCategory {
  const out: FilledCategory = { catid: stored.catid };
  if (stored.value !== undefined) out.value = stored.value;
  if (stored.valueid !== undefined) out.valueid = stored.valueid;
  if (stored.categoryvalues !== undefined) out.categoryvalues = stored.categoryvalues.map((v) => ({ catid: v.catid }));
  return out;
}

/** An option counts only inside its own property: an id of another property's option is unknown here. */
function optionOf(ontologies: OntologyIndexes, propertyId: string, id: string | undefined): IndexedOption | undefined {
  const option = id === undefined ? undefined : ontologies.properties.options.get(id);
  return option?.propertyId === propertyId ? option : undefined;
}

function fillCategory(
  stored: StoredCategory,
  ontologies: OntologyIndexes,
  languages: readonly string[],
): FilledCategory {
  const known = ontologies.properties.properties.get(stored.catid);
  if (!known) return asStored(stored);
  const { datatype } = known.property;
  const out: FilledCategory = { catid: stored.catid, datatype };

  switch (datatype) {
    case 'choice': {
      const option = optionOf(ontologies, stored.catid, stored.valueid);
      out.value = option ? option.labels.dutch : normaliseValue(datatype, stored.value);
      if (stored.valueid !== undefined) out.valueid = stored.valueid;
      out.categoryTranslations = labelsFor(known.labels, languages);
      if (option) out.valueCategoryTranslations = labelsFor(option.labels, languages);
      return out;
    }
    case 'multichoice': {
      const options: IndexedOption[] = [];
      const categoryvalues = (stored.categoryvalues ?? []).map((value): FilledCategoryValue => {
        const option = optionOf(ontologies, stored.catid, value.catid);
        if (!option) return { catid: value.catid };
        options.push(option);
        return { catid: value.catid, categoryTranslations: labelsFor(option.labels, languages) };
      });
      out.value =
        options.length > 0 ? options.map((o) => o.labels.dutch).join(';') : normaliseValue(datatype, stored.value);
      out.categoryvalues = categoryvalues;
      out.categoryTranslations = labelsFor(known.labels, languages);
      if (options.length > 0) {
        out.valueCategoryTranslations = languages.map((lang) => ({
          lang,
          label: options.map((o) => labelIn(o.labels, lang)).join(';'),
        }));
      }
      return out;
    }
    case 'freetext':
    case 'url': {
      out.value = normaliseValue(datatype, stored.value);
      out.categoryTranslations = perLanguageValues(stored, known.labels, languages);
      return out;
    }
    default:
      out.value = normaliseValue(datatype, stored.value);
      out.categoryTranslations = labelsFor(known.labels, languages);
      return out;
  }
}

/**
 * freetext and url (DT-006, DT-011): the label per item language, with the stored value of that
 * language. A value stored for a language the item does not list is still returned (after the
 * item's languages): dropping it would lose what the writer sent.
 * @implements DT-006, DT-011
 */
function perLanguageValues(
  stored: StoredCategory,
  labels: Labels,
  languages: readonly string[],
): FilledCategoryTranslation[] {
  const values = new Map<string, string>();
  for (const t of stored.categoryTranslations ?? []) if (!values.has(t.lang)) values.set(t.lang, t.value);
  const langs = [...languages];
  for (const lang of values.keys()) if (!languages.includes(lang)) langs.push(lang);
  return langs.map((lang) => {
    const entry: FilledCategoryTranslation = { lang, label: labelIn(labels, lang) };
    const value = values.get(lang);
    if (value !== undefined) entry.value = value;
    return entry;
  });
}

// @implements ONTO-002, ONTO-003, ONTO-014
export function fillItemCategories(
  stored: Partial<StoredCategories> | null | undefined,
  ontologies: OntologyIndexes,
  languages: readonly string[],
): FilledCategories {
  const filled: FilledCategories = {
    types: (stored?.types ?? []).map((t) => fillType(t, ontologies, languages)),
    categories: (stored?.categories ?? []).map((c) => fillCategory(c, ontologies, languages)),
  };
  // Stored as written (DEC-ITEM-174).
  if (typeof stored?.soldout === 'boolean') filled.soldout = stored.soldout;
  if (typeof stored?.canceled === 'boolean') filled.canceled = stored.canceled;
  return filled;
}
