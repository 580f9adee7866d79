import {
  createValidatorFactory,
  indexOperations,
  responseSchemaPointer,
  type OperationRef,
  type ValidateFunction,
  type ValidatorFactory,
} from '../../../../spec/index.ts';
import { loadOpenApiDocument, type JsonObject } from '../../../src/http/openapiDocument.ts';

// Validates answers against the schemas of the bundled spec (generated/openapi.json), the same
// document the conformance suite checks deployments with. Compiled on first use, once each.

let schemaAt: ValidatorFactory | undefined;
let operations: Map<string, OperationRef> | undefined;

/** The validator of the schema at `pointer` in the bundled spec (`/components/schemas/Error`). */
export function specSchema(pointer: string): ValidateFunction {
  schemaAt ??= createValidatorFactory(loadOpenApiDocument());
  return schemaAt(pointer);
}

/** The JSON response schema of `operationId` for `status`, or undefined when the spec gives none. */
export function documentedResponseSchema(operationId: string, status: number): ValidateFunction | undefined {
  const doc = loadOpenApiDocument();
  operations ??= indexOperations(doc);
  const operation = operations.get(operationId);
  if (operation === undefined) throw new Error(`no operation ${operationId}`);
  const pointer = responseSchemaPointer(doc, operation, status);
  return pointer === undefined ? undefined : specSchema(pointer);
}

/** The JSON response schema of `operationId` for `status`. */
export function responseValidator(operationId: string, status: number): ValidateFunction {
  const validate = documentedResponseSchema(operationId, status);
  if (validate === undefined) throw new Error(`${operationId} has no JSON ${status} response`);
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
