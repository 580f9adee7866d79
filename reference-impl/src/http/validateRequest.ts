import type { Request, RequestHandler, Response } from 'express';
import { findUnstorable } from '../domain/unstorableJson.ts';
import { badRequest, HttpError, type HttpErrorDetail } from './HttpError.ts';
import { loadOpenApiDocument, type JsonObject } from './openapiDocument.ts';
import type { OperationId, OperationInput } from './operationInput.ts';
import {
  createValidatorFactory,
  indexOperations,
  joinPointer,
  operationParameters,
  resolveRef,
  type ErrorObject,
  type OperationRef,
  type ValidateFunction,
} from '../../../spec/index.ts';

// Request validation compiled from the spec's own schemas (the spec is the single source of
// truth): path, query and header parameters are coerced from strings by their schema type, then
// validated with ajv; JSON bodies are validated as they are. Handlers read the result through
// `validated(res, operationId)`, typed from the spec, and never look at raw `req.query`.

const MAX_DETAILS = 20;

export interface ValidatedRequest {
  operationId: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}

// @implements LIMIT-001, LIMIT-003
// @implements ERR-001, LIMIT-002
/** The one rule the schema cannot hold: an oversized `size` on the item lists (LIMIT-002/003, ERR-001). */
export interface SizeCapRule {
  max: number;
  enforcedFrom: Date;
  now: () => number;
}

interface CompiledParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  kind: 'integer' | 'number' | 'boolean' | 'array' | 'string' | 'other';
  itemKind: 'integer' | 'number' | 'boolean' | 'string' | 'other';
  validate: ValidateFunction;
  schema: JsonObject;
}

interface CompiledOperation {
  ref: OperationRef;
  parameters: CompiledParameter[];
  body?: { required: boolean; validate: ValidateFunction };
}

export interface ValidationOptions {
  /** LIMIT-002/003 on `size`. */
  sizeCap?: SizeCapRule;
  /** An operation whose query parameters are accepted here and ignored (a detail read takes its list's). */
  ignoreQueryOf?: OperationId;
}

export interface RequestValidator {
  /** Middleware validating the request of `operationId`. */
  (operationId: OperationId, options?: ValidationOptions): RequestHandler;
  operations: ReadonlyMap<string, OperationRef>;
}

// @implements ITEM-007, ITEM-008, ITEM-009, API-001, VER-003
export function createRequestValidator(doc: JsonObject = loadOpenApiDocument()): RequestValidator {
  // verbose: a failed `not` is described by its schema's own description (errors only; no cost otherwise).
  const schemaAt = createValidatorFactory(doc, { verbose: true });
  const operations = indexOperations(doc);
  const compiled = new Map<string, CompiledOperation>();

  function compileOperation(operationId: string): CompiledOperation {
    const ref = operations.get(operationId);
    if (ref === undefined) throw new Error(`validateRequest: no operation ${operationId} in the spec`);
    // Every schema is compiled by its pointer into the document, so its `$ref`s resolve there.
    const parameters = operationParameters(doc, ref).map(({ pointer, parameter }): CompiledParameter => {
      const schema = resolveRef<JsonObject>(doc, parameter.schema);
      const items = schema.items === undefined ? undefined : resolveRef<JsonObject>(doc, schema.items);
      return {
        name: String(parameter.name),
        in: parameter.in as CompiledParameter['in'],
        required: parameter.required === true,
        kind: kindOf(schema),
        itemKind: items === undefined ? 'other' : (kindOf(items) as CompiledParameter['itemKind']),
        validate: schemaAt(joinPointer(pointer, 'schema')),
        schema,
      };
    });
    const requestBody =
      ref.operation.requestBody === undefined ? undefined : resolveRef<JsonObject>(doc, ref.operation.requestBody);
    const jsonSchema = (requestBody?.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined;
    const body =
      jsonSchema === undefined
        ? undefined
        : {
            required: requestBody!.required === true,
            validate: schemaAt(joinPointer(ref.pointer, 'requestBody', 'content', 'application/json', 'schema')),
          };
    return { ref, parameters, body };
  }

  const compiledOperation = (operationId: string) => {
    const operation = compiled.get(operationId) ?? compileOperation(operationId);
    compiled.set(operationId, operation);
    return operation;
  };

  const validator = function validateRequest(
    operationId: OperationId,
    options: ValidationOptions = {},
  ): RequestHandler {
    let operation: CompiledOperation | undefined;
    let ignored: ReadonlySet<string> | undefined;
    return function validateRequestHandler(req: Request, res: Response, next) {
      operation ??= compiledOperation(operationId);
      ignored ??= new Set(
        options.ignoreQueryOf === undefined
          ? []
          : compiledOperation(options.ignoreQueryOf)
              .parameters.filter((p) => p.in === 'query')
              .map((p) => p.name),
      );
      setValidated(res, { operationId, ...validateAgainst(operation, req, options.sizeCap, ignored) });
      next();
    };
  } as RequestValidator;
  validator.operations = operations;
  return validator;
}

function validateAgainst(
  operation: CompiledOperation,
  req: Request,
  sizeCap: SizeCapRule | undefined,
  ignored: ReadonlySet<string>,
): Omit<ValidatedRequest, 'operationId'> {
  const result: Omit<ValidatedRequest, 'operationId'> = { params: {}, query: {}, headers: {}, body: undefined };
  const details: HttpErrorDetail[] = [];
  const rawQuery = req.query as Record<string, string | string[] | undefined>;

  const known = new Set(operation.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  for (const name of Object.keys(rawQuery)) {
    if (!known.has(name) && !ignored.has(name)) {
      const knownList = [...known].join(', ') || 'none';
      details.push({ pointer: `query/${name}`, message: `unknown query parameter ${name} (known: ${knownList})` });
    }
  }

  for (const parameter of operation.parameters) {
    const raw =
      parameter.in === 'path'
        ? req.params[parameter.name]
        : parameter.in === 'query'
          ? rawQuery[parameter.name]
          : req.headers[parameter.name.toLowerCase()];
    // An empty query value is a value like any other, valid where the schema takes '' (DEC-LIST-011);
    // an empty path segment or header is no value.
    if (raw === undefined || (raw === '' && parameter.in !== 'query')) {
      if (parameter.required)
        details.push({ pointer: `${parameter.in}/${parameter.name}`, message: `${parameter.name} is required` });
      continue;
    }
    if (Array.isArray(raw)) {
      details.push({
        pointer: `${parameter.in}/${parameter.name}`,
        message: `${parameter.name} must be given once (received it ${raw.length} times)`,
      });
      continue;
    }
    if (raw.includes('\u0000')) {
      details.push({
        pointer: `${parameter.in}/${parameter.name}`,
        message: `${parameter.name} contains the character U+0000, which cannot be stored`,
      });
      continue;
    }
    let value = coerce(parameter, raw);
    if (sizeCap !== undefined && parameter.name === 'size' && typeof value === 'number' && value > sizeCap.max) {
      // From the enforcement date the exact interface body (no details); before it, a silent cap.
      if (sizeCap.now() >= sizeCap.enforcedFrom.getTime()) {
        throw new HttpError(400, { message: `size must not exceed ${sizeCap.max} (requested: ${value})` });
      }
      value = sizeCap.max;
    }
    if (!parameter.validate(value)) {
      details.push(...describe(parameter.validate.errors, `${parameter.in}/${parameter.name}`, parameter.name, raw));
      continue;
    }
    const target = parameter.in === 'path' ? result.params : parameter.in === 'query' ? result.query : result.headers;
    target[parameter.name] = value;
  }

  if (operation.body !== undefined) {
    let problem: HttpErrorDetail | undefined;
    // Express 5 leaves req.body undefined unless the JSON parser read a JSON body.
    if (req.body === undefined) {
      if (operation.body.required) {
        details.push({
          pointer: '',
          message: `a JSON body is required (Content-Type: application/json; received: ${req.headers['content-type'] ?? 'none'})`,
        });
      }
    } else if ((problem = findUnstorable(req.body)) !== undefined) {
      // PostgreSQL cannot hold U+0000 (DEC-ITEM-028); a client error, not a storage failure or a stack overflow.
      details.push(problem);
    } else if (!operation.body.validate(req.body)) {
      details.push(...describe(operation.body.validate.errors, '', 'body', undefined));
    } else {
      result.body = req.body;
    }
  }

  if (details.length > 0) {
    const shown = details.slice(0, MAX_DETAILS);
    const sentences = shown.map(sentence);
    const message =
      sentences.length === 1 ? sentences[0]! : `The request has ${details.length} problems: ${sentences.join('; ')}`;
    throw new HttpError(400, { message, details: shown });
  }
  return result;
}

/** A detail as a sentence: parameter messages already name the parameter; body ones get their pointer. */
function sentence(detail: HttpErrorDetail): string {
  if (!detail.pointer.startsWith('/') && detail.pointer !== '') return detail.message;
  if (detail.message.startsWith('unknown field') || detail.message.startsWith('a JSON body'))
    return `Request body is invalid: ${detail.message}`;
  // A missing top-level field is named; a nested one keeps its pointer.
  if (detail.message === 'is required' && detail.pointer.lastIndexOf('/') === 0)
    return `Request body is invalid: ${detail.pointer.slice(1)} is required`;
  return `Request body is invalid: ${detail.pointer || '(root)'} ${detail.message}`;
}

function kindOf(schema: JsonObject): CompiledParameter['kind'] {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  return type === 'integer' || type === 'number' || type === 'boolean' || type === 'array' || type === 'string'
    ? type
    : 'other';
}

function coerceScalar(kind: string, raw: string): unknown {
  if (kind === 'integer' && /^[+-]?\d{1,15}$/.test(raw)) return Number(raw);
  if (kind === 'number' && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
  if (kind === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/** Query and header values arrive as strings; form-style arrays are comma lists (`explode: false`). */
function coerce(parameter: CompiledParameter, raw: string): unknown {
  if (parameter.kind === 'array') return raw.split(',').map((part) => coerceScalar(parameter.itemKind, part.trim()));
  return coerceScalar(parameter.kind, raw);
}

/** ajv errors as details whose messages name the field, what was received and what was expected. */
function describe(
  errors: ErrorObject[] | null | undefined,
  base: string,
  name: string,
  raw: string | undefined,
): HttpErrorDetail[] {
  const seen = new Set<string>();
  const details: HttpErrorDetail[] = [];
  for (const error of errors ?? []) {
    // `oneOf`/`anyOf` summaries repeat what their branches said.
    if (error.keyword === 'oneOf' || error.keyword === 'anyOf' || error.keyword === 'if') continue;
    const pointer = base === '' ? error.instancePath : base + error.instancePath;
    let message: string;
    if (error.keyword === 'unevaluatedProperties' || error.keyword === 'additionalProperties') {
      const field = String(
        (error.params as { unevaluatedProperty?: string; additionalProperty?: string }).unevaluatedProperty ??
          (error.params as { additionalProperty?: string }).additionalProperty,
      );
      message = `unknown field ${field}`;
      details.push({ pointer: `${pointer}/${field}`, message });
      continue;
    }
    if (error.keyword === 'required') {
      const field = String((error.params as { missingProperty: string }).missingProperty);
      details.push({ pointer: `${pointer}/${field}`, message: 'is required' });
      continue;
    }
    if (error.keyword === 'enum') {
      message = `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')}`;
    } else if (error.keyword === 'not' && typeof error.parentSchema?.description === 'string') {
      message = error.parentSchema.description;
    } else if (error.keyword === 'const') {
      message = `must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}`;
    } else {
      message = error.message ?? 'is invalid';
    }
    if (raw !== undefined) message = `${name} ${message} (received: ${raw})`;
    const key = `${pointer} ${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ pointer, message });
  }
  return details.length > 0 ? details : [{ pointer: base, message: `${name} is invalid` }];
}

const VALIDATED = Symbol('validated');

function setValidated(res: Response, value: ValidatedRequest): void {
  (res.locals as Record<symbol, unknown>)[VALIDATED] = value;
}

/**
 * The request as validated against operation `operationId` of the spec, typed from it; only valid
 * behind `validateRequest(operationId)`. The check ties the type to what was validated.
 */
export function validated<Op extends OperationId>(res: Response, operationId: Op): OperationInput<Op> {
  const value = (res.locals as Record<symbol, unknown>)[VALIDATED] as ValidatedRequest | undefined;
  if (value === undefined)
    throw new Error('validated: no validated request; is validateRequest() mounted before this handler?');
  if (value.operationId !== operationId)
    throw new Error(`validated: the request was validated as ${value.operationId}, not as ${operationId}`);
  // ajv checked params, query and body against this operation's schemas, which these types are made from.
  return value as unknown as OperationInput<Op>;
}

export { badRequest };
