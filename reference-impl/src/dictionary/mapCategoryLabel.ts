import { DUTCH, type Labels, type PropertyIndex } from './indexes.ts';
import type { Datatype, StoredCategory } from '../domain/ontology.ts';

// Feed rule 5 (ONTO-009): a category sent as a plain-text `value` without `catid` is mapped to a
// property or option id by its label. Dutch labels are tried first, then every other language;
// letter case, diacritics, spaces and punctuation do not count ("cafe" finds "Café"). A label that fits
// several entries equally well is not guessed at: it is reported, like one that fits none.
// Deprecated entries are not offered for new data.

export type LabelMatch =
  | { kind: 'property'; propertyId: string; datatype: Datatype }
  | { kind: 'option'; propertyId: string; optionId: string; datatype: Datatype };

export type LabelMapping =
  | { mapped: true; match: LabelMatch; lang: 'nl' | 'other' }
  | { mapped: false; text: string; reason: 'unknown' | 'ambiguous'; candidates?: string[] };

/**
 * Letters and digits only, lower case, without diacritics: Dutch compounds are written with and
 * without hyphens or spaces ("lange-afstandswandelpad", "auto's"), and feeds do both.
 */
export function labelKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

interface LabelTables {
  dutch: Map<string, LabelMatch[]>;
  other: Map<string, LabelMatch[]>;
}

const tables = new WeakMap<PropertyIndex, LabelTables>();

function add(table: Map<string, LabelMatch[]>, label: string, match: LabelMatch): void {
  const key = labelKey(label);
  if (key === '') return;
  const list = table.get(key) ?? [];
  const id = match.kind === 'option' ? match.optionId : match.propertyId;
  if (!list.some((m) => (m.kind === 'option' ? m.optionId : m.propertyId) === id)) list.push(match);
  table.set(key, list);
}

function addLabels(t: LabelTables, labels: Labels, match: LabelMatch): void {
  add(t.dutch, labels.dutch, match);
  for (const [lang, label] of labels.byLang) add(lang === DUTCH ? t.dutch : t.other, label, match);
}

function labelTables(index: PropertyIndex): LabelTables {
  const known = tables.get(index);
  if (known) return known;
  const t: LabelTables = { dutch: new Map(), other: new Map() };
  for (const [propertyId, entry] of index.properties) {
    if (entry.deprecated) continue;
    addLabels(t, entry.labels, { kind: 'property', propertyId, datatype: entry.property.datatype });
  }
  for (const [optionId, entry] of index.options) {
    if (entry.deprecated) continue;
    const datatype = index.properties.get(entry.propertyId)?.property.datatype ?? 'choice';
    addLabels(t, entry.labels, { kind: 'option', propertyId: entry.propertyId, optionId, datatype });
  }
  tables.set(index, t);
  return t;
}

const idOf = (m: LabelMatch): string => (m.kind === 'option' ? m.optionId : m.propertyId);

export function mapCategoryLabel(text: string, ontologies: { properties: PropertyIndex }): LabelMapping {
  const t = labelTables(ontologies.properties);
  const key = labelKey(text);
  for (const [lang, table] of [
    ['nl', t.dutch],
    ['other', t.other],
  ] as const) {
    const matches = table.get(key) ?? [];
    if (matches.length === 1) return { mapped: true, match: matches[0] as LabelMatch, lang };
    if (matches.length > 1) return { mapped: false, text, reason: 'ambiguous', candidates: matches.map(idOf) };
  }
  return { mapped: false, text, reason: 'unknown' };
}

export interface UnmappedCategory {
  text: string;
  reason: 'unknown' | 'ambiguous' | 'not-a-flag';
  candidates?: string[];
}

/**
 * A feed entry's categories with plain-text entries turned into stored form: an option label
 * becomes `valueid` (choice) or one of `categoryvalues` (multichoice, several labels of one property
 * merge); a property label means "has it" and is kept only for flag datatypes (yes, yesno,
 * nullableyesno), whose value it implies. Entries with a `catid` pass unchanged. What cannot be
 * mapped is left out and returned for the run report.
 */
export function mapFeedCategories(
  categories: readonly unknown[],
  ontologies: { properties: PropertyIndex },
): { categories: Array<Record<string, unknown>>; unmapped: UnmappedCategory[] } {
  const out: Array<Record<string, unknown>> = [];
  const unmapped: UnmappedCategory[] = [];
  const multichoice = new Map<string, Partial<StoredCategory> & { categoryvalues: Array<{ catid: string }> }>();

  for (const entry of categories) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    if (typeof e.catid === 'string' && e.catid !== '') {
      out.push(e);
      continue;
    }
    if (typeof e.value !== 'string' || e.value.trim() === '') continue;
    const mapping = mapCategoryLabel(e.value, ontologies);
    if (!mapping.mapped) {
      unmapped.push(
        mapping.candidates
          ? { text: mapping.text, reason: mapping.reason, candidates: mapping.candidates }
          : { text: mapping.text, reason: mapping.reason },
      );
      continue;
    }
    const { match } = mapping;
    if (match.kind === 'option' && match.datatype === 'multichoice') {
      const merged = multichoice.get(match.propertyId);
      if (merged) {
        if (!merged.categoryvalues.some((v) => v.catid === match.optionId))
          merged.categoryvalues.push({ catid: match.optionId });
      } else {
        const created = { catid: match.propertyId, categoryvalues: [{ catid: match.optionId }] };
        multichoice.set(match.propertyId, created);
        out.push(created);
      }
    } else if (match.kind === 'option') {
      out.push({ catid: match.propertyId, valueid: match.optionId });
    } else if (match.datatype === 'yes') {
      out.push({ catid: match.propertyId });
    } else if (match.datatype === 'yesno' || match.datatype === 'nullableyesno') {
      out.push({ catid: match.propertyId, value: 'true' });
    } else {
      unmapped.push({ text: e.value, reason: 'not-a-flag', candidates: [match.propertyId] });
    }
  }
  return { categories: out, unmapped };
}
