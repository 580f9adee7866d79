import { describe, expect, it } from 'vitest';
import { checkPropertyOntology, checkTypeOntology } from './checkOntology.ts';
import { indexPropertyOntology, indexTypeOntology } from './indexes.ts';
import { loadBaseOntologies, loadDataOverrides, loadDemoAccounts } from './loadData.ts';
import { DATATYPES, type TypeNode } from '../domain/ontology.ts';

const LANGS = ['nl', 'en', 'de'];
const base = loadBaseOntologies();
const nodes = (list: readonly TypeNode[]): TypeNode[] => list.flatMap((n) => [n, ...nodes(n.child ?? [])]);

describe('ontology data: base type ontology', () => {
  const all = nodes(base.types.categorizations);

  it('has three trees, one per entity type, nested three levels with dotted cnetIDs [ONTO-011]', () => {
    expect(base.types.categorizations.map((n) => [n.cnetID, n.entityType])).toEqual([
      ['1', 'EVENEMENT'],
      ['2', 'LOCATIE'],
      ['3', 'ROUTE'],
    ]);
    expect(all.some((n) => n.cnetID.split('.').length === 3)).toBe(true);
    expect(all.every((n) => /^t-\d{4}$/.test(n.categorizationId) && /^\d+(\.\d+)*$/.test(n.cnetID))).toBe(true);
    expect(checkTypeOntology(base.types)).toEqual([]);
  });

  it('labels every node in nl, en and de, the Dutch label being its name [DEC-DICT-007]', () => {
    for (const node of all) {
      expect(node.categorizationTranslations?.map((t) => t.lang)).toEqual(LANGS);
      expect(node.categorizationTranslations?.[0]?.label).toBe(node.categorization);
    }
  });

  it('has deprecated nodes [ONTO-012]', () => {
    expect(all.filter((n) => n.deprecated).map((n) => n.cnetID)).toEqual(['1.10', '2.3.5', '3.5']);
  });

  it('has a lastModified timestamp [ONTO-010]', () => {
    expect(base.types.lastModified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(base.properties.lastModified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});

describe('ontology data: base property ontology', () => {
  const index = indexPropertyOntology(base.properties);

  it('passes the ontology checks, with ids of the published forms [ONTO-013] [ONTO-014]', () => {
    expect(checkPropertyOntology(base.properties)).toEqual([]);
    expect([...index.properties.keys()].every((id) => /^p-\d{4}$/.test(id))).toBe(true);
    expect([...index.options.keys()].every((id) => /^o-\d{4}$/.test(id))).toBe(true);
    expect(base.properties.propertyCategories.map((c) => c.name)).toEqual([
      'Toegankelijkheid',
      'Faciliteiten',
      'Praktische informatie',
      'Contact',
      'Duurzaamheid',
      'Capaciteit',
      'Zaalopstellingen',
    ]);
  });

  it('uses every datatype, with options on every choice and multichoice [DT-001] [DEC-DICT-003]', () => {
    const used = new Set([...index.properties.values()].map((p) => p.property.datatype));
    expect([...used].sort()).toEqual([...DATATYPES].sort());
    for (const { property } of index.properties.values()) {
      if (property.datatype === 'choice' || property.datatype === 'multichoice')
        expect(property.options?.length).toBeGreaterThan(1);
    }
  });

  it('labels every category, property and option in nl, en and de', () => {
    const entries = [
      ...base.properties.propertyCategories,
      ...[...index.properties.values()].map((p) => p.property),
      ...[...index.options.values()].map((o) => o.option),
    ];
    for (const entry of entries) expect(entry.propertytranslations.map((t) => t.lang)).toEqual(LANGS);
  });

  it('nests a sub-property and keeps deprecated entries [DEC-DICT-003]', () => {
    expect(index.properties.get('p-1107')?.property.datatype).toBe('integer');
    expect(index.properties.get('p-1108')?.deprecated).toBe(true);
    expect(index.options.get('o-2115')?.deprecated).toBe(true);
  });
});

describe('ontology data: overrides and demo accounts', () => {
  const overrides = loadDataOverrides();

  it('gives utrecht a type ontology that renames, adds, deprecates and omits against the base [ONTO-016]', () => {
    const utrecht = overrides.types.get('utrecht');
    if (!utrecht) throw new Error('missing');
    const theirs = indexTypeOntology({ lastModified: '2025-01-01T00:00:00.000Z', ...utrecht }).byCnetId;
    const ours = indexTypeOntology(base.types).byCnetId;
    expect(ours.get('1.1.2')?.labels.dutch).toBe('Pop en rock');
    expect(theirs.get('1.1.2')?.labels.dutch).toBe('Popmuziek');
    expect(ours.has('1.1.7')).toBe(false);
    expect(theirs.get('1.1.7')?.labels.byLang.get('en')).toBe('Early music');
    expect(theirs.get('1.5.2')?.node.deprecated).toBe(true);
    expect(['2.2.3', '2.5.3', '3.3.3'].map((id) => [ours.has(id), theirs.has(id)])).toEqual([
      [true, false],
      [true, false],
      [true, false],
    ]);
    expect('lastModified' in utrecht).toBe(false);
  });

  it('gives zeeland an example property ontology that renames, adds and omits [ONTO-016]', () => {
    const zeeland = overrides.properties.get('zeeland');
    if (!zeeland) throw new Error('missing');
    const theirs = indexPropertyOntology({ lastModified: '2025-01-01T00:00:00.000Z', ...zeeland });
    expect(theirs.properties.get('p-1102')?.labels.dutch).toBe('Gratis wifi');
    expect(theirs.properties.has('p-1401')).toBe(false);
    expect(theirs.options.get('o-2902')?.labels.byLang.get('en')).toBe('Lifeguards');
  });

  it('lists the demo accounts with their organisations, and every override belongs to one of them', () => {
    const accounts = loadDemoAccounts();
    expect(accounts.map((a) => [a.id, a.organisations])).toEqual([
      ['amsterdam', ['amsterdam-marketing', 'amsterdam-museums']],
      ['utrecht', ['utrecht-toerisme']],
      ['zeeland', ['vvv-zeeland']],
    ]);
    const ids = accounts.map((a) => a.id);
    for (const accountId of [...overrides.types.keys(), ...overrides.properties.keys()])
      expect(ids).toContain(accountId);
  });

  it('is frozen, so no caller can change the labels everyone reads', () => {
    expect(Object.isFrozen(base.types.categorizations[0])).toBe(true);
    expect(() => {
      (base.properties.propertyCategories as unknown[]).push({});
    }).toThrow(TypeError);
  });
});

describe('checkPropertyOntology', () => {
  it('when ids repeat, options are missing or misplaced, or a datatype is unknown, then each is reported with its pointer', () => {
    const problems = checkPropertyOntology({
      propertyCategories: [
        {
          id: 'pc-1',
          name: 'A',
          datatype: 'yes',
          propertytranslations: [],
          properties: [
            { id: 'p-1', name: 'Keuze', datatype: 'choice', propertytranslations: [] },
            {
              id: 'p-1',
              name: 'Dubbel',
              datatype: 'yes',
              propertytranslations: [],
              options: [{ id: 'o-1', name: 'X', propertytranslations: [] }],
            },
            { id: 'p-2', name: '', datatype: 'colour', propertytranslations: [] },
          ],
        },
      ],
    });
    expect(problems.map((p) => p.pointer)).toEqual([
      '/propertyCategories/0/properties/0/options',
      '/propertyCategories/0/properties/1/id',
      '/propertyCategories/0/properties/1/options',
      '/propertyCategories/0/properties/2/name',
      '/propertyCategories/0/properties/2/datatype',
    ]);
    expect(problems[1]?.message).toContain('"p-1" is already used at /propertyCategories/0/properties/0/id');
  });

  it('when the body is not an ontology, then that is reported', () => {
    expect(checkPropertyOntology([])).toEqual([
      { pointer: '/propertyCategories', message: 'propertyCategories must be an array of property categories' },
    ]);
  });
});

describe('checkTypeOntology', () => {
  it('when a cnetID does not extend its parent or a top node lacks entityType, then it is reported', () => {
    const problems = checkTypeOntology({
      categorizations: [
        {
          categorizationId: 't-1',
          cnetID: '1',
          categorization: 'A',
          child: [{ categorizationId: 't-2', cnetID: '2.1', categorization: 'B' }],
        },
      ],
    });
    expect(problems.map((p) => p.pointer)).toEqual([
      '/categorizations/0/entityType',
      '/categorizations/0/child/0/cnetID',
    ]);
  });
});
