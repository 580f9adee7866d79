import type { TypeNode, TypeOntology } from '../domain/ontology.ts';

// DEC-DICT-030: every node of the type ontology as answered carries its labels also under
// `categoryTranslations`, the name the operator's tools read, next to `categorizationTranslations`
// (DEC-DICT-007), which earlier clients read. The data keeps one list; the copy is made per answer.

function withCopies(nodes: readonly TypeNode[]): TypeNode[] {
  return nodes.map((node) => {
    const out: TypeNode = { ...node };
    if (node.categorizationTranslations !== undefined) out.categoryTranslations = node.categorizationTranslations;
    if (node.child !== undefined) out.child = withCopies(node.child);
    return out;
  });
}

export function withCategoryTranslations(ontology: TypeOntology): TypeOntology {
  return { ...ontology, categorizations: withCopies(ontology.categorizations) };
}
