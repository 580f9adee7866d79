// (a) The requirement catalogue: well-formed, unique, referenced ids exist, decisions agree.
import { describe, expect, it } from 'vitest';
import { loadDecisionIds, loadRequirements, loadSpec, walk } from './spec.ts';

const requirements = loadRequirements();
const ids = requirements.map((r) => r.id);
const known = new Set(ids);
const spec = loadSpec();

/** Every `x-requirements` / `x-decision` id in the bundled spec with where it was found. */
function referenced(extension: 'x-requirements' | 'x-decision'): Array<{ id: string; at: string }> {
  const found: Array<{ id: string; at: string }> = [];
  walk(spec, '', (node, pointer) => {
    const value = node[extension];
    if (value === undefined) return;
    if (!Array.isArray(value)) {
      found.push({ id: `<${extension} is not an array: ${JSON.stringify(value)}>`, at: pointer });
      return;
    }
    for (const id of value) found.push({ id: String(id), at: pointer });
  });
  return found;
}

describe('spec/requirements.yaml', () => {
  it('when the catalogue is read, then it is non-trivial and every id is unique', () => {
    expect(requirements.length).toBeGreaterThan(100);
    const duplicates = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(duplicates).toEqual([]);
  });

  it('when each entry is read, then it has a well-formed id, a valid level and subject, a section and a statement', () => {
    const bad = requirements.filter(
      (r) =>
        !/^(DEC-)?[A-Z]+-\d{3}$/.test(r.id) ||
        !['MUST', 'SHOULD', 'DECISION'].includes(r.level) ||
        !['service', 'client', 'receiver'].includes(r.subject) ||
        typeof r.section !== 'string' ||
        r.section.trim() === '' ||
        typeof r.statement !== 'string' ||
        r.statement.trim() === '',
    );
    expect(bad.map((r) => JSON.stringify(r))).toEqual([]);
  });

  it('when an id starts with DEC-, then its level is DECISION, and the other way round', () => {
    const mismatched = requirements.filter((r) => r.id.startsWith('DEC-') !== (r.level === 'DECISION'));
    expect(mismatched.map((r) => `${r.id} (${r.level})`)).toEqual([]);
  });

  it('when the bundled spec names requirement ids in x-requirements, then each exists in the catalogue', () => {
    const refs = referenced('x-requirements');
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((r) => !known.has(r.id)).map((r) => `${r.id} at ${r.at}`)).toEqual([]);
  });

  it('when the bundled spec marks x-decision ids, then each is a DECISION of the catalogue', () => {
    const decisions = new Set(requirements.filter((r) => r.level === 'DECISION').map((r) => r.id));
    expect(
      referenced('x-decision')
        .filter((r) => !decisions.has(r.id))
        .map((r) => `${r.id} at ${r.at}`),
    ).toEqual([]);
  });
});

describe('spec/DECISIONS.md', () => {
  const decisionIds = loadDecisionIds();
  const catalogued = requirements.filter((r) => r.level === 'DECISION').map((r) => r.id);

  it('when the decision tables are read, then each id appears once', () => {
    expect(decisionIds.length).toBeGreaterThan(0);
    expect(decisionIds.filter((id, i) => decisionIds.indexOf(id) !== i)).toEqual([]);
  });

  it('when compared with the DECISION entries of requirements.yaml, then both hold exactly the same ids', () => {
    const inDocOnly = decisionIds.filter((id) => !catalogued.includes(id));
    const inCatalogueOnly = catalogued.filter((id) => !decisionIds.includes(id));
    expect({ inDocOnly, inCatalogueOnly }).toEqual({ inDocOnly: [], inCatalogueOnly: [] });
  });
});
