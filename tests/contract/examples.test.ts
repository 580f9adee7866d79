// (c) Every example in the bundled spec validates against its schema (Ajv, draft 2020-12, with
// formats): media-type examples, parameter and header examples, and schema examples.
import { describe, expect, it } from 'vitest';
import { createValidatorFactory, formatErrors } from '../../spec/index.ts';
import { escapePointer, resolveRef } from '../../spec/index.ts';
import { loadSpec, walk } from './spec.ts';

const spec = loadSpec();
const validatorAt = createValidatorFactory(spec);

type Case = { where: string; schemaPointer: string; value: unknown };

/** Keys under which a JSON Schema holds subschemas (objects) or lists/maps of them. */
const SCHEMA_CHILD = new Set([
  'items',
  'not',
  'additionalProperties',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentSchema',
]);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

function exampleValues(holder: Record<string, any>, pointer: string): Array<{ name: string; value: unknown }> {
  const values: Array<{ name: string; value: unknown }> = [];
  if ('example' in holder) values.push({ name: `${pointer}/example`, value: holder.example });
  if (holder.examples && typeof holder.examples === 'object' && !Array.isArray(holder.examples)) {
    for (const [name, raw] of Object.entries(holder.examples as Record<string, unknown>)) {
      const resolved = resolveRef(spec, raw) as Record<string, unknown> | undefined;
      if (resolved && 'value' in resolved)
        values.push({ name: `${pointer}/examples/${escapePointer(name)}`, value: resolved.value });
    }
  }
  return values;
}

/** Media types, parameters and headers: anything with a `schema` beside `example`/`examples`. */
function holderCases(): Case[] {
  const cases: Case[] = [];
  walk(spec, '', (node, pointer) => {
    if (!node.schema || typeof node.schema !== 'object' || pointer.includes('/properties/')) return;
    if (!('example' in node) && !('examples' in node)) return;
    for (const { name, value } of exampleValues(node, pointer))
      cases.push({ where: name, schemaPointer: `${pointer}/schema`, value });
  });
  return cases;
}

/** Schema `example` and `examples: []` on every schema reachable from components and operations. */
function schemaCases(): Case[] {
  const cases: Case[] = [];
  const seen = new Set<string>();
  const visitSchema = (schema: unknown, pointer: string): void => {
    if (!schema || typeof schema !== 'object' || Array.isArray(schema) || seen.has(pointer)) return;
    seen.add(pointer);
    const s = schema as Record<string, any>;
    if ('example' in s) cases.push({ where: `${pointer}/example`, schemaPointer: pointer, value: s.example });
    if (Array.isArray(s.examples))
      s.examples.forEach((value: unknown, i: number) =>
        cases.push({ where: `${pointer}/examples/${i}`, schemaPointer: pointer, value }),
      );
    for (const [key, child] of Object.entries(s)) {
      if (SCHEMA_CHILD.has(key)) visitSchema(child, `${pointer}/${key}`);
      else if (SCHEMA_LIST.has(key) && Array.isArray(child))
        child.forEach((c, i) => visitSchema(c, `${pointer}/${key}/${i}`));
      else if (SCHEMA_MAP.has(key) && child && typeof child === 'object')
        for (const [name, c] of Object.entries(child)) visitSchema(c, `${pointer}/${key}/${escapePointer(name)}`);
    }
  };
  for (const [name, schema] of Object.entries((spec.components?.schemas ?? {}) as Record<string, unknown>))
    visitSchema(schema, `/components/schemas/${escapePointer(name)}`);
  walk(spec, '', (node, pointer) => {
    if (pointer.startsWith('/components/schemas')) return;
    if (node.schema && typeof node.schema === 'object') visitSchema(node.schema, `${pointer}/schema`);
  });
  return cases;
}

function failures(cases: Case[]): string[] {
  const failed: string[] = [];
  for (const c of cases) {
    let validate;
    try {
      validate = validatorAt(c.schemaPointer);
    } catch (error) {
      failed.push(`${c.where}: schema at ${c.schemaPointer} does not compile: ${(error as Error).message}`);
      continue;
    }
    if (!validate(c.value)) failed.push(`${c.where} breaks ${c.schemaPointer}:\n${formatErrors(validate)}`);
  }
  return failed;
}

describe('examples in generated/openapi.json', () => {
  const holders = holderCases();
  const schemas = schemaCases();

  it('when a media type, parameter or header has examples, then each validates against its schema', () => {
    expect(holders.length).toBeGreaterThan(0);
    expect(failures(holders)).toEqual([]);
  });

  it('when a schema has an example or examples, then each validates against that schema', () => {
    expect(schemas.length).toBeGreaterThan(0);
    expect(failures(schemas)).toEqual([]);
  });

  it('when an example breaks its schema, then this check notices (the check can fail)', () => {
    const [first] = holders.filter((c) => c.value && typeof c.value === 'object' && !Array.isArray(c.value));
    expect(first).toBeDefined();
    const broken = { ...(first as Case), value: 42 };
    expect(failures([broken])).toHaveLength(1);
  });
});
