import type { ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import {
  HTTP_METHODS,
  indexOperations,
  loadOpenApiDocument,
  resolveRef,
  type JsonObject,
} from '../../../src/http/openapiDocument.ts';
import { createSpecAjv, SPEC_ID } from '../../../src/http/specAjv.ts';

// The spec's operations as the security tests need them: every method + path template, its
// parameters with resolved schemas, its request body's media type and examples, and the statuses
// it documents. Read from generated/openapi.json, the same bundle the service validates with.

export interface SpecParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  /** The parameter's schema with `$ref`s of it and of its `items` resolved. */
  schema: JsonObject;
  items: JsonObject | undefined;
}

export interface SpecOperation {
  operationId: string;
  method: Uppercase<(typeof HTTP_METHODS)[number]>;
  /** The spec's template, e.g. `/events/{id}`. */
  path: string;
  parameters: SpecParameter[];
  body: { mediaType: string; required: boolean; examples: unknown[] } | undefined;
  /** Every status the operation documents. */
  statuses: ReadonlySet<number>;
  /** False for the operations with `security: []` (sign-in, refresh, health). */
  authenticated: boolean;
}

let cached: SpecOperation[] | undefined;

export function specOperations(): SpecOperation[] {
  if (cached !== undefined) return cached;
  const doc = loadOpenApiDocument();
  cached = [...indexOperations(doc).values()].map((ref) => {
    const rawParameters = [
      ...((ref.pathItem.parameters as unknown[]) ?? []),
      ...((ref.operation.parameters as unknown[]) ?? []),
    ];
    const parameters = rawParameters.map((node): SpecParameter => {
      const parameter = resolveRef(doc, node);
      const schema = resolveRef(doc, parameter.schema);
      return {
        name: String(parameter.name),
        in: parameter.in as SpecParameter['in'],
        required: parameter.required === true,
        schema,
        items: schema.items === undefined ? undefined : resolveRef(doc, schema.items),
      };
    });
    const requestBody =
      ref.operation.requestBody === undefined ? undefined : resolveRef(doc, ref.operation.requestBody);
    const content = (requestBody?.content ?? {}) as Record<string, JsonObject>;
    const [mediaType, media] = Object.entries(content)[0] ?? [];
    const examples = Object.values((media?.examples ?? {}) as Record<string, unknown>).map((e) =>
      structuredClone(resolveRef(doc, e).value),
    );
    const security = ref.operation.security as unknown[] | undefined;
    return {
      operationId: ref.operationId,
      method: ref.method.toUpperCase() as SpecOperation['method'],
      path: ref.path,
      parameters,
      body: mediaType === undefined ? undefined : { mediaType, required: requestBody!.required === true, examples },
      statuses: new Set(Object.keys(ref.operation.responses as JsonObject).map(Number)),
      authenticated: !(Array.isArray(security) && security.length === 0),
    };
  });
  return cached;
}

export function specOperation(operationId: string): SpecOperation {
  const found = specOperations().find((op) => op.operationId === operationId);
  if (found === undefined) throw new Error(`no operation ${operationId} in the spec`);
  return found;
}

let ajv: Ajv2020 | undefined;
let errorValidator: ValidateFunction | undefined;

function specAjv(): Ajv2020 {
  ajv ??= createSpecAjv(loadOpenApiDocument());
  return ajv;
}

/**
 * What is wrong with an error answer (empty when nothing): its body must be the spec's Error
 * schema (DEC-ERR-001) and repeat the HTTP status.
 */
export function errorBodyProblems(status: number, body: unknown): string[] {
  errorValidator ??= specAjv().compile({ $ref: `${SPEC_ID}#/components/schemas/Error` });
  const problems = errorValidator(body)
    ? []
    : (errorValidator.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  if (body !== null && typeof body === 'object' && (body as { status?: unknown }).status !== status) {
    problems.push(
      `body.status ${String((body as { status?: unknown }).status)} differs from the HTTP status ${status}`,
    );
  }
  return problems;
}

const responseValidators = new Map<string, ValidateFunction | null>();

/**
 * What is wrong with a JSON answer against the operation's documented schema for `status` (empty
 * when nothing, or when the spec gives no JSON schema for it).
 */
export function responseBodyProblems(operationId: string, status: number, body: unknown): string[] {
  const key = `${operationId} ${status}`;
  if (!responseValidators.has(key)) responseValidators.set(key, compileResponse(operationId, status));
  const validate = responseValidators.get(key);
  if (validate === null || validate === undefined) return [];
  return validate(body)
    ? []
    : (validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}

function compileResponse(operationId: string, status: number): ValidateFunction | null {
  const doc = loadOpenApiDocument();
  const ref = indexOperations(doc).get(operationId);
  const response = (ref?.operation.responses as JsonObject | undefined)?.[String(status)] as JsonObject | undefined;
  if (ref === undefined || response === undefined) return null;
  const media = ((resolveRef(doc, response).content ?? {}) as Record<string, JsonObject>)['application/json'];
  if (media?.schema === undefined) return null;
  // A `$ref`ed response is compiled at its component, an inline one under the operation.
  const base = typeof response.$ref === 'string' ? response.$ref : `${ref.pointer}/responses/${status}`;
  return specAjv().compile({ $ref: `${SPEC_ID}${base}/content/application~1json/schema` });
}
