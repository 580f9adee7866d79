// Our spec against the operator's published model (operator-model/model.yaml): where the interface
// text is silent, an integrator who builds against our mock or sandbox must meet the shapes the
// real service sends. Every difference is either gone or listed in operator-model/deviations.yaml
// with the requirement (the interface text wins) or the decision (DECISIONS.md says why).
import { describe, expect, it } from 'vitest';
import {
  compareFields,
  compareType,
  shapeOf,
  type Difference,
  type ModelObjects,
  type ModelType,
} from './operator-model/compare.ts';
import { covers as coversPath, deviations, model } from './operator-model/load.ts';
import { loadDecisionIds, loadRequirements, loadSpec } from './spec.ts';

function differences(): Difference[] {
  const document = loadSpec();
  return model.roots.flatMap((root) => {
    const schema = { $ref: `#/components/schemas/${root.schema}` };
    const all = model.objects[root.object] ?? {};
    const fields = Object.fromEntries(
      Object.entries(all).filter(
        ([name]) => (!root.fields || root.fields.includes(name)) && !root.except?.includes(name),
      ),
    );
    return compareFields(document, model.objects, fields, shapeOf(document, schema).properties, root.object);
  });
}

const covers = (deviation: (typeof deviations)[number], difference: Difference) =>
  coversPath(deviation, difference.path);

describe('the spec against the operator model', () => {
  const found = differences();

  it('when a schema of ours differs from the model, then deviations.yaml names the decision or the requirement that says why', () => {
    const unexplained = found.filter((d) => !deviations.some((deviation) => covers(deviation, d)));
    expect(unexplained.map((d) => `${d.path}: ${d.message}`)).toEqual([]);
  });

  it('when deviations.yaml lists a difference, then it still exists, so the list never outlives the spec', () => {
    const stale = deviations.filter((deviation) => !found.some((d) => covers(deviation, d)));
    expect(stale.map((d) => d.path)).toEqual([]);
  });

  it('when a deviation gives its reason, then it names a known decision or interface requirement and says why', () => {
    const decisions = new Set(loadDecisionIds());
    const requirements = new Map(loadRequirements().map((r) => [r.id, r.level]));
    const bad = deviations.filter((d) => {
      const named = d.decision
        ? decisions.has(d.decision)
        : d.requirement
          ? requirements.get(d.requirement) !== 'DECISION' && requirements.has(d.requirement)
          : false;
      return !named || !d.why?.trim();
    });
    expect(bad.map((d) => d.path)).toEqual([]);
  });
});

describe('the comparison itself', () => {
  const objects: ModelObjects = {
    Thing: { name: 'string', kind: { enum: ['a', 'b'] }, parts: ['Part'] as [ModelType] },
    Part: { size: 'integer' },
  };
  const doc = {
    components: {
      schemas: {
        Part: { type: 'object', properties: { size: { type: 'integer' } } },
        Thing: {
          allOf: [{ type: 'object', properties: { name: { type: 'string' } } }],
          properties: {
            kind: { type: 'string', enum: ['a', 'b'] },
            parts: { type: 'array', items: { $ref: '#/components/schemas/Part' } },
          },
        },
      },
    },
  };
  const compare = (properties: Record<string, unknown>) =>
    compareFields(doc, objects, objects.Thing!, properties, 'Thing');

  it('when our schema has the model fields with their types, enums and nesting, then nothing differs', () => {
    expect(compareType(doc, objects, 'Thing', { $ref: '#/components/schemas/Thing' }, 'Thing')).toEqual([]);
  });

  it('when a field is missing, has another type, another enum or another nesting, then each is reported at its path', () => {
    const found = compare({
      kind: { type: 'string', enum: ['a', 'c'] },
      parts: { type: 'array', items: { type: 'object', properties: { size: { type: 'string' } } } },
    });
    expect(found.map((d) => d.path)).toEqual(['Thing.name', 'Thing.kind', 'Thing.parts.size']);
    expect(found[1]!.message).toMatch(/lacks b and adds c/);
    expect(
      compare({ name: { type: 'object', properties: {} }, kind: { enum: ['a', 'b'] }, parts: { type: 'object' } }).map(
        (d) => d.path,
      ),
    ).toEqual(['Thing.name', 'Thing.parts']);
  });

  it('when a variant narrows an enum to one constant of it, then that is no difference', () => {
    expect(compareType(doc, objects, { enum: ['a', 'b'] }, { const: 'a' }, 'x')).toEqual([]);
    expect(compareType(doc, objects, { enum: ['a', 'b'] }, { const: 'z' }, 'x')).toHaveLength(1);
  });
});
