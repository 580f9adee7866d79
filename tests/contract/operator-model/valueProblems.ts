// Holds a JSON value (an item the sandbox or the mock answers) against an object of the
// operator's model (model.yaml), as the operator's response model would parse it: every field the
// model defines that the value carries must have the model's JSON type, enum value and nesting.
// Fields beyond the model are fine. `skip` leaves out model paths where we differ on purpose
// (deviations.yaml).
import type { ModelObjects, ModelType } from './compare.ts';

export interface ValueProblem {
  /** Model path, e.g. `TRCItem.contactinfo.mail`. */
  path: string;
  /** JSON pointer into the value. */
  pointer: string;
  message: string;
}

const jsonType = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number' && Number.isInteger(value)
        ? 'integer'
        : typeof value;

export function valueProblems(
  objects: ModelObjects,
  type: ModelType,
  value: unknown,
  path: string,
  skip: (path: string) => boolean,
  pointer = '',
): ValueProblem[] {
  if (skip(path) || value === null || value === undefined) return [];
  const problem = (message: string): ValueProblem[] => [{ path, pointer, message }];
  const actual = jsonType(value);
  if (Array.isArray(type)) {
    if (!Array.isArray(value)) return problem(`an array in the model; here ${actual}`);
    return value.flatMap((entry, i) => valueProblems(objects, type[0], entry, path, skip, `${pointer}/${i}`));
  }
  if (typeof type === 'object') {
    if (typeof value !== 'string') return problem(`one of the model's values; here ${actual}`);
    return type.enum.includes(value)
      ? []
      : problem(`${JSON.stringify(value)} is none of the model's ${type.enum.join(', ')}`);
  }
  if (type === 'string' || type === 'boolean')
    return actual === type ? [] : problem(`a ${type} in the model; here ${actual}`);
  if (type === 'integer') return actual === 'integer' ? [] : problem(`an integer in the model; here ${actual}`);
  if (type === 'number')
    return actual === 'integer' || actual === 'number' ? [] : problem(`a number in the model; here ${actual}`);
  const fields = objects[type];
  if (!fields) throw new Error(`model.yaml names an unknown object ${type} at ${path}`);
  if (actual !== 'object') return problem(`an object ${type} in the model; here ${actual}`);
  const record = value as Record<string, unknown>;
  return Object.entries(fields).flatMap(([name, fieldType]) =>
    name in record
      ? valueProblems(objects, fieldType, record[name], `${path}.${name}`, skip, `${pointer}/${name}`)
      : [],
  );
}
