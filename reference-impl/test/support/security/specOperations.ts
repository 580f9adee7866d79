import { HTTP_METHODS, indexOperations, operationParameters, resolveRef } from '../../../../spec/index.ts';
import { loadOpenApiDocument, type JsonObject } from '../../../src/http/openapiDocument.ts';
import { documentedResponseSchema, specSchema } from '../items/responseSchemas.ts';

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
    const parameters = operationParameters(doc, ref).map(({ parameter }): SpecParameter => {
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

/**
 * What is wrong with an error answer (empty when nothing): its body must be the spec's Error
 * schema (DEC-ERR-001) and repeat the HTTP status.
 */
export function errorBodyProblems(status: number, body: unknown): string[] {
  const errorValidator = specSchema('/components/schemas/Error');
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

/**
 * What is wrong with a JSON answer against the operation's documented schema for `status` (empty
 * when nothing, or when the spec gives no JSON schema for it).
 */
export function responseBodyProblems(operationId: string, status: number, body: unknown): string[] {
  const validate = documentedResponseSchema(operationId, status);
  if (validate === undefined) return [];
  return validate(body)
    ? []
    : (validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}
