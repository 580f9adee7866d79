import type { OntologySource, PropertyOntology, TypeOntology } from '../domain/ontology.ts';

// @implements ONTO-015
// Which ontology fills in an account's items (ONTO-015/016): its own override when it has one,
// else the base. Per ontology kind, and whole documents only: an override is a complete
// replacement, so an id it leaves out is gone for that account even though the base has it.

export interface OntologyPair {
  types: TypeOntology;
  properties: PropertyOntology;
}

export interface ChosenOntologies extends OntologyPair {
  source: { categorization: OntologySource; properties: OntologySource };
}

export function chooseOntologies(
  base: OntologyPair,
  override: { types?: TypeOntology | null; properties?: PropertyOntology | null },
): ChosenOntologies {
  return {
    types: override.types ?? base.types,
    properties: override.properties ?? base.properties,
    source: {
      categorization: override.types ? 'account' : 'base',
      properties: override.properties ? 'account' : 'base',
    },
  };
}
