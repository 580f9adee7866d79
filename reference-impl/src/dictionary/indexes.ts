import type {
  Property,
  PropertyCategory,
  PropertyOntology,
  PropertyOption,
  TreeEntityType,
  TypeNode,
  TypeOntology,
} from '../domain/ontology.ts';

// Lookup tables over one ontology document. A document is never changed after it is loaded
// (a new version is a new object), so each is indexed once and the index is memoised on it.

export const DUTCH = 'nl';

/** The labels of one ontology entry; `dutch` is the fallback for every missing language. */
export interface Labels {
  readonly dutch: string;
  readonly byLang: ReadonlyMap<string, string>;
}

/** The label in `lang`, else in its primary language (`en` for `en-GB`), else Dutch (DEC-DICT-006). */
export function labelIn(labels: Labels, lang: string): string {
  const label = labels.byLang.get(lang);
  if (label !== undefined) return label;
  const dash = lang.indexOf('-');
  return (dash === -1 ? undefined : labels.byLang.get(lang.slice(0, dash))) ?? labels.dutch;
}

function makeLabels(name: string, translations: ReadonlyArray<{ lang: string; text: string }> | undefined): Labels {
  const byLang = new Map<string, string>();
  for (const t of translations ?? []) {
    if (typeof t?.lang === 'string' && typeof t.text === 'string' && t.text !== '' && !byLang.has(t.lang)) {
      byLang.set(t.lang, t.text);
    }
  }
  // The Dutch translation is the label; `name` backs it up when an ontology omits it.
  return { dutch: byLang.get(DUTCH) ?? name, byLang };
}

// ---------------------------------------------------------------- type ontology

export interface IndexedTypeNode {
  readonly node: TypeNode;
  readonly labels: Labels;
  /** The entity type of the node's tree (set on its top-level node). */
  readonly entityType: TreeEntityType | undefined;
}

export interface TypeIndex {
  readonly doc: TypeOntology;
  readonly byCnetId: ReadonlyMap<string, IndexedTypeNode>;
}

const typeIndexes = new WeakMap<TypeOntology, TypeIndex>();

export function indexTypeOntology(doc: TypeOntology): TypeIndex {
  const known = typeIndexes.get(doc);
  if (known) return known;
  const byCnetId = new Map<string, IndexedTypeNode>();
  const visit = (nodes: readonly TypeNode[] | undefined, entityType: TreeEntityType | undefined): void => {
    for (const node of nodes ?? []) {
      const tree = node.entityType ?? entityType;
      const labels = makeLabels(
        node.categorization,
        node.categorizationTranslations?.map((t) => ({ lang: t.lang, text: t.label })),
      );
      // First occurrence wins; checkTypeOntology rejects duplicates in data we load.
      if (!byCnetId.has(node.cnetID)) byCnetId.set(node.cnetID, { node, labels, entityType: tree });
      visit(node.child, tree);
    }
  };
  visit(doc.categorizations, undefined);
  const index: TypeIndex = { doc, byCnetId };
  typeIndexes.set(doc, index);
  return index;
}

// ---------------------------------------------------------------- property ontology

export interface IndexedProperty {
  readonly property: Property;
  readonly labels: Labels;
  readonly category: PropertyCategory;
  /** Deprecated itself or inside a deprecated category or parent property. */
  readonly deprecated: boolean;
}

export interface IndexedOption {
  readonly option: PropertyOption;
  readonly labels: Labels;
  readonly propertyId: string;
  readonly deprecated: boolean;
}

export interface PropertyIndex {
  readonly doc: PropertyOntology;
  /** Every property, sub-properties included, by id: what `categories[].catid` references. */
  readonly properties: ReadonlyMap<string, IndexedProperty>;
  /** Every option by id: what `valueid` and `categoryvalues[].catid` reference. */
  readonly options: ReadonlyMap<string, IndexedOption>;
}

const propertyIndexes = new WeakMap<PropertyOntology, PropertyIndex>();

export function indexPropertyOntology(doc: PropertyOntology): PropertyIndex {
  const known = propertyIndexes.get(doc);
  if (known) return known;
  const properties = new Map<string, IndexedProperty>();
  const options = new Map<string, IndexedOption>();
  const visit = (
    list: readonly Property[] | undefined,
    category: PropertyCategory,
    inheritedDeprecated: boolean,
  ): void => {
    for (const property of list ?? []) {
      const deprecated = inheritedDeprecated || property.deprecated === true;
      if (!properties.has(property.id)) {
        properties.set(property.id, {
          property,
          labels: makeLabels(property.name, property.propertytranslations),
          category,
          deprecated,
        });
      }
      for (const option of property.options ?? []) {
        if (options.has(option.id)) continue;
        options.set(option.id, {
          option,
          labels: makeLabels(option.name, option.propertytranslations),
          propertyId: property.id,
          deprecated: deprecated || option.deprecated === true,
        });
      }
      visit(property.properties, category, deprecated);
    }
  };
  for (const category of doc.propertyCategories ?? [])
    visit(category.properties, category, category.deprecated === true);
  const index: PropertyIndex = { doc, properties, options };
  propertyIndexes.set(doc, index);
  return index;
}

// ---------------------------------------------------------------- both

/** The two indexes that fill in one item's labels. */
export interface OntologyIndexes {
  readonly types: TypeIndex;
  readonly properties: PropertyIndex;
}

export function indexOntologies(docs: { types: TypeOntology; properties: PropertyOntology }): OntologyIndexes {
  return { types: indexTypeOntology(docs.types), properties: indexPropertyOntology(docs.properties) };
}
