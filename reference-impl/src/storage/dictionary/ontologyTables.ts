import type { OntologyKind } from '../../domain/ontology.ts';

// The table and the root field of each ontology kind. Table names come only from here, never
// from a request, so they can be put into SQL text.

export const ONTOLOGY_TABLE: Readonly<Record<OntologyKind, string>> = {
  types: 'account_type_ontologies',
  properties: 'account_property_ontologies',
};

export const ONTOLOGY_ROOT: Readonly<Record<OntologyKind, 'categorizations' | 'propertyCategories'>> = {
  types: 'categorizations',
  properties: 'propertyCategories',
};

/** A timestamptz as the interface writes it: ISO-8601 UTC, three fraction digits, `Z`. */
export function isoTimestamp(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
