import type { TypeNode, TypeOntology } from '../domain/ontology.ts';

// @implements ONTO-012
// The type ontology as answered by default (ONTO-012): deprecated nodes are left out, and with
// them their children, which live under a classification that is no longer offered.
// `includeDeprecated=true` (DEC-DICT-004) answers the document unfiltered.

function keep(nodes: readonly TypeNode[]): TypeNode[] {
  return nodes.flatMap((node) => {
    if (node.deprecated === true) return [];
    return [node.child === undefined ? node : { ...node, child: keep(node.child) }];
  });
}

export function filterDeprecated(ontology: TypeOntology): TypeOntology {
  return { ...ontology, categorizations: keep(ontology.categorizations) };
}
