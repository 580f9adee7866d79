import { DUTCH } from './indexes.ts';

// The languages an item's labels are filled in for (DEC-DICT-006): its declared
// `translations.availableLanguages`, else the languages of its `trcItemDetails`, else Dutch.

export interface ItemLanguageFields {
  translations?: { availableLanguages?: unknown } | null;
  trcItemDetails?: unknown;
}

function distinctCodes(values: Iterable<unknown>): string[] {
  const codes = new Set<string>();
  for (const value of values) if (typeof value === 'string' && value.trim() !== '') codes.add(value.trim());
  return [...codes];
}

export function itemLanguages(item: ItemLanguageFields): string[] {
  const declared = item.translations?.availableLanguages;
  if (Array.isArray(declared)) {
    const codes = distinctCodes(declared);
    if (codes.length > 0) return codes;
  }
  if (Array.isArray(item.trcItemDetails)) {
    const codes = distinctCodes(
      item.trcItemDetails.map((detail: unknown) =>
        typeof detail === 'object' && detail !== null ? (detail as { lang?: unknown }).lang : undefined,
      ),
    );
    if (codes.length > 0) return codes;
  }
  return [DUTCH];
}
