import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import {
  escapePointer,
  indexOperations,
  loadOpenApiDocument,
  type JsonObject,
} from '../../../src/http/openapiDocument.ts';

// Validates answers against the response schemas of the bundled spec (generated/openapi.json),
// the same document the conformance suite checks deployments with.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const SPEC_ID = 'openapi.json';

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

/** The JSON response schema of `operationId` for `status`, compiled once. */
export function responseValidator(operationId: string, status: number): ValidateFunction {
  const key = `${operationId} ${status}`;
  const known = compiled.get(key);
  if (known) return known;
  const doc = loadOpenApiDocument();
  if (ajv === undefined) {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, SPEC_ID);
  }
  const operation = indexOperations(doc).get(operationId);
  if (operation === undefined) throw new Error(`no operation ${operationId}`);
  let pointer = `${operation.pointer}/responses/${status}`;
  const response = (operation.operation.responses as JsonObject)[String(status)] as JsonObject | undefined;
  if (response === undefined) throw new Error(`${operationId} has no ${status} response`);
  if (typeof response.$ref === 'string') pointer = response.$ref;
  const validate = ajv.compile({ $ref: `${SPEC_ID}${pointer}/content/${escapePointer('application/json')}/schema` });
  compiled.set(key, validate);
  return validate;
}

/** The errors of `body` against the response schema, as readable lines (empty when valid). */
export function responseProblems(operationId: string, status: number, body: unknown): string[] {
  const validate = responseValidator(operationId, status);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}

/** A named example's value from the bundled spec (a deep copy). */
export function specExample<T = Record<string, unknown>>(name: string): T {
  const examples = (loadOpenApiDocument().components as JsonObject).examples as Record<string, { value: unknown }>;
  const example = examples[name];
  if (example === undefined) throw new Error(`no example ${name}`);
  return structuredClone(example.value) as T;
}
