import type {
  OntologyBody,
  Property,
  PropertyCategory,
  PropertyOntology,
  PropertyOption,
  PropertyTranslation,
} from '../domain/ontology.ts';

// DEC-DICT-011: unknown fields of a property ontology sent with PUT are dropped, not stored. The
// body has passed the spec's schema (which tolerates extra fields), so the known ones have their
// types; this keeps exactly those, nested entries included.

type Loose = Record<string, unknown>;

const translations = (value: unknown): PropertyTranslation[] =>
  (Array.isArray(value) ? value : []).map((t: Loose) => ({ lang: t.lang as string, text: t.text as string }));

function withDeprecated<T extends object>(entry: T, source: Loose): T {
  return source.deprecated === undefined ? entry : { ...entry, deprecated: source.deprecated as boolean };
}

function option(source: Loose): PropertyOption {
  return withDeprecated(
    {
      id: source.id as string,
      name: source.name as string,
      propertytranslations: translations(source.propertytranslations),
    },
    source,
  );
}

function property(source: Loose): Property {
  const kept: Property = {
    id: source.id as string,
    name: source.name as string,
    datatype: source.datatype as Property['datatype'],
    propertytranslations: translations(source.propertytranslations),
  };
  if (Array.isArray(source.options)) kept.options = source.options.map(option);
  if (Array.isArray(source.properties)) kept.properties = source.properties.map(property);
  return withDeprecated(kept, source);
}

function category(source: Loose): PropertyCategory {
  return withDeprecated(
    {
      id: source.id as string,
      name: source.name as string,
      datatype: source.datatype as PropertyCategory['datatype'],
      propertytranslations: translations(source.propertytranslations),
      properties: (Array.isArray(source.properties) ? source.properties : []).map(property),
    },
    source,
  );
}

/** The property ontology with only the fields the spec names (`lastModified` dropped: the server sets it). */
export function keepKnownPropertyOntologyFields(body: {
  propertyCategories?: unknown;
}): OntologyBody<PropertyOntology> {
  return { propertyCategories: (Array.isArray(body.propertyCategories) ? body.propertyCategories : []).map(category) };
}
