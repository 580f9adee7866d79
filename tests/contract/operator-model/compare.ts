// Holds a schema of our spec against an object of the operator's published model (model.yaml):
// every field the model defines must exist with the model's JSON type, enum values and nesting.
// Fields we have beyond the model are fine (the model lets unknown fields through).
import { resolveRef } from '../../../spec/index.ts';

/** A field's type in model.yaml: a primitive, `{enum}`, an object's name, or `[X]` for an array. */
export type ModelType = string | { enum: string[] } | [ModelType];
export type ModelObjects = Record<string, Record<string, ModelType>>;

export interface Difference {
  /** Model path: the root object's name and field names, e.g. `TRCItem.files.title`. */
  path: string;
  message: string;
}

const PRIMITIVES = new Set(['string', 'boolean', 'integer', 'number']);

/** What a schema of ours says about a value: its JSON types, enum values, properties, items. */
interface Shape {
  types: Set<string>;
  enumValues?: Set<unknown>;
  properties: Record<string, unknown>;
  items: unknown[];
}

export function shapeOf(document: unknown, schema: unknown): Shape {
  const shape: Shape = { types: new Set(), properties: {}, items: [] };
  const visit = (node: unknown): void => {
    const s = resolveRef<Record<string, any>>(document, node);
    if (!s || typeof s !== 'object') return;
    for (const part of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) visit(part);
    for (const t of [s.type].flat()) if (typeof t === 'string') shape.types.add(t);
    const values = s.enum ?? ('const' in s ? [s.const] : undefined);
    if (values) shape.enumValues = new Set([...(shape.enumValues ?? []), ...values]);
    if (s.properties) {
      shape.types.add('object');
      Object.assign(shape.properties, s.properties);
    }
    if (s.items) {
      shape.types.add('array');
      shape.items.push(s.items);
    }
  };
  visit(schema);
  return shape;
}

function describe(type: ModelType): string {
  if (Array.isArray(type)) return `array of ${describe(type[0])}`;
  if (typeof type === 'object') return `enum [${type.enum.join(', ')}]`;
  return PRIMITIVES.has(type) ? type : `object ${type}`;
}

/**
 * The differences between `schema` (ours) and the model's `type` at `path`. `seen` stops the walk
 * where a recursive object (the ontology's `child`) meets a schema it was already held against.
 */
export function compareType(
  document: unknown,
  objects: ModelObjects,
  type: ModelType,
  schema: unknown,
  path: string,
  seen: Set<string> = new Set(),
): Difference[] {
  const shape = shapeOf(document, schema);
  const differ = (message: string): Difference[] => [{ path, message }];
  if (Array.isArray(type)) {
    if (!shape.types.has('array'))
      return differ(`model: ${describe(type)}; ours: ${[...shape.types].join('|') || 'any'}`);
    return shape.items.flatMap((items) => compareType(document, objects, type[0], items, path, seen));
  }
  if (typeof type === 'object') {
    const ours = shape.enumValues;
    if (!ours) return differ(`model: ${describe(type)}; ours: no enum`);
    const missing = type.enum.filter((v) => !ours.has(v));
    // A constant is how a variant of ours narrows the model's enum (entitytype EVENEMENT).
    const narrowedToOne = ours.size === 1 && missing.length === type.enum.length - 1;
    if (narrowedToOne) return [];
    const extra = [...ours].filter((v) => !type.enum.includes(v as string));
    if (missing.length === 0 && extra.length === 0) return [];
    const parts = [missing.length ? `lacks ${missing.join(', ')}` : '', extra.length ? `adds ${extra.join(', ')}` : ''];
    return differ(`enum differs from the model's: ours ${parts.filter(Boolean).join(' and ')}`);
  }
  if (PRIMITIVES.has(type)) {
    if (!shape.types.has(type)) return differ(`model: ${type}; ours: ${[...shape.types].join('|') || 'any'}`);
    if (type === 'string' && shape.enumValues) return differ('model: free string; ours: an enum');
    return [];
  }
  const fields = objects[type];
  if (!fields) throw new Error(`model.yaml names an unknown object ${type} at ${path}`);
  if (!shape.types.has('object'))
    return differ(`model: ${describe(type)}; ours: ${[...shape.types].join('|') || 'any'}`);
  const key = `${type} ${JSON.stringify(schema)}`;
  if (seen.has(key)) return [];
  seen.add(key);
  return compareFields(document, objects, fields, shape.properties, path, seen);
}

export function compareFields(
  document: unknown,
  objects: ModelObjects,
  fields: Record<string, ModelType>,
  properties: Record<string, unknown>,
  path: string,
  seen: Set<string> = new Set(),
): Difference[] {
  return Object.entries(fields).flatMap(([name, type]) => {
    const at = `${path}.${name}`;
    if (!(name in properties))
      return [{ path: at, message: `the model has ${name} (${describe(type)}); ours has no such field` }];
    return compareType(document, objects, type, properties[name], at, seen);
  });
}
