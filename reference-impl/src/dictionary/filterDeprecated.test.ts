import { describe, expect, it } from 'vitest';
import { filterDeprecated } from './filterDeprecated.ts';
import { loadBaseOntologies } from './loadData.ts';
import type { TypeNode, TypeOntology } from '../domain/ontology.ts';

const cnetIds = (nodes: readonly TypeNode[]): string[] => nodes.flatMap((n) => [n.cnetID, ...cnetIds(n.child ?? [])]);

describe('filterDeprecated', () => {
  it('when the base ontology is answered by default, then its deprecated nodes are left out [ONTO-012]', () => {
    const full = loadBaseOntologies().types;
    const filtered = filterDeprecated(full);
    expect(cnetIds(full.categorizations)).toEqual(expect.arrayContaining(['1.10', '2.3.5', '3.5']));
    expect(cnetIds(filtered.categorizations).filter((id) => ['1.10', '2.3.5', '3.5'].includes(id))).toEqual([]);
    expect(cnetIds(filtered.categorizations)).toContain('2.3.4');
    expect(filtered.lastModified).toBe(full.lastModified);
  });

  it('when a deprecated node has children, then they are left out with it [ONTO-012]', () => {
    const doc: TypeOntology = {
      lastModified: '2025-01-01T00:00:00.000Z',
      categorizations: [
        {
          categorizationId: 't-1',
          cnetID: '1',
          categorization: 'A',
          entityType: 'EVENEMENT',
          child: [
            {
              categorizationId: 't-2',
              cnetID: '1.1',
              categorization: 'B',
              deprecated: true,
              child: [{ categorizationId: 't-3', cnetID: '1.1.1', categorization: 'C' }],
            },
            { categorizationId: 't-4', cnetID: '1.2', categorization: 'D', deprecated: false },
          ],
        },
      ],
    };
    expect(cnetIds(filterDeprecated(doc).categorizations)).toEqual(['1', '1.2']);
    expect(cnetIds(doc.categorizations)).toEqual(['1', '1.1', '1.1.1', '1.2']);
  });
});
