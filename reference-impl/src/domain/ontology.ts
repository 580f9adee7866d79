// Shapes of the two ontologies and of an item's trcItemCategories, as the spec publishes them
// (spec/components/schemas: CategorizationOntology, PropertiesOntology, TrcItemCategories).

import { ENTITY_TYPE } from '../../../generated/constants.ts';

export const DATATYPES = [
  'yes',
  'yesno',
  'nullableyesno',
  'choice',
  'multichoice',
  'freetext',
  'integer',
  'decimal',
  'date',
  'data',
  'url',
  'email',
  'phone',
] as const;
export type Datatype = (typeof DATATYPES)[number];

/** The entity types a top-level categorisation node may name. */
export const TREE_ENTITY_TYPES = [ENTITY_TYPE.EVENEMENT, ENTITY_TYPE.LOCATIE, ENTITY_TYPE.ROUTE] as const;
export type TreeEntityType = (typeof TREE_ENTITY_TYPES)[number];

export interface LabelTranslation {
  lang: string;
  label: string;
}
export interface PropertyTranslation {
  lang: string;
  text: string;
}

// ---------------------------------------------------------------- type ontology

export interface TypeNode {
  categorizationId: string;
  cnetID: string;
  categorization: string;
  entityType?: TreeEntityType;
  categorizationTranslations?: LabelTranslation[];
  /** In answers only: the same labels under the operator's name (DEC-DICT-030). */
  categoryTranslations?: LabelTranslation[];
  deprecated?: boolean;
  child?: TypeNode[];
}

export interface TypeOntology {
  lastModified: string;
  categorizations: TypeNode[];
}

// ---------------------------------------------------------------- property ontology

export interface PropertyOption {
  id: string;
  name: string;
  propertytranslations: PropertyTranslation[];
  deprecated?: boolean;
}

export interface Property {
  id: string;
  name: string;
  datatype: Datatype;
  propertytranslations: PropertyTranslation[];
  options?: PropertyOption[];
  properties?: Property[];
  deprecated?: boolean;
}

export interface PropertyCategory {
  id: string;
  name: string;
  datatype: Datatype;
  propertytranslations: PropertyTranslation[];
  properties: Property[];
  deprecated?: boolean;
}

export interface PropertyOntology {
  lastModified: string;
  propertyCategories: PropertyCategory[];
}

/** An ontology as sent or stored: `lastModified` is the server's, so it may be absent here. */
export type OntologyBody<T extends { lastModified: string }> = Omit<T, 'lastModified'> & { lastModified?: string };

export type OntologyKind = 'types' | 'properties';
export type OntologySource = 'base' | 'account';

/** Ontologies of accounts that replace the base ones, by account id. */
export interface OntologyOverrides {
  /** Type ontology overrides: the data shipped is their source of truth. */
  types: ReadonlyMap<string, OntologyBody<TypeOntology>>;
  /** Example property ontology overrides: seeded once, then owned by PUT. */
  properties: ReadonlyMap<string, OntologyBody<PropertyOntology>>;
}

// ---------------------------------------------------------------- item categories, as stored

export interface StoredType {
  catid: string;
  isDefault: boolean;
}

export interface StoredCategory {
  catid: string;
  value?: string | null;
  valueid?: string;
  categoryvalues?: Array<{ catid: string }>;
  /** Per-language values of freetext and url categories; labels are never stored. */
  categoryTranslations?: Array<{ lang: string; value: string }>;
}

export interface StoredCategories {
  types: StoredType[];
  categories: StoredCategory[];
  /** Stored as written (DEC-ITEM-174). */
  soldout?: boolean;
  canceled?: boolean;
}

// ---------------------------------------------------------------- item categories, as read

/** A label filled in on read, with the id of the ontology entry it labels (DEC-ITEM-175). */
export interface FilledLabel {
  /** Declared for services that fill it; this one does not (DEC-ITEM-175). */
  catid?: string;
  lang: string;
  label: string;
}

export interface FilledType {
  catid: string;
  isDefault: boolean;
  categoryTranslations?: FilledLabel[];
}

export interface FilledCategoryTranslation extends FilledLabel {
  value?: string;
}

export interface FilledCategoryValue {
  catid: string;
  /** The option's Dutch label (DEC-ITEM-176). */
  value?: string;
  categoryTranslations?: FilledLabel[];
  /** The same labels under the model's name (DEC-ITEM-176). */
  categorytranslations?: FilledLabel[];
}

export interface FilledCategory {
  catid: string;
  datatype?: Datatype;
  value?: string | null;
  valueid?: string;
  categoryvalues?: FilledCategoryValue[];
  categoryTranslations?: FilledCategoryTranslation[];
  parentCategoryTranslations?: FilledLabel[];
  valueCategoryTranslations?: FilledLabel[];
}

export interface FilledCategories {
  types: FilledType[];
  categories: FilledCategory[];
  soldout?: boolean;
  canceled?: boolean;
}
