// Schemathesis-style response conformance, applied to every response the suite receives:
// the status is documented for the operation, the content type is documented, required
// headers are present and valid, and the body is valid against the response schema.
//
// Schemas are compiled by ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) straight from
// the bundled document, so `$ref`s to components resolve as they are. OpenAPI-only keywords
// (`example`, `discriminator`, `xml`, `externalDocs`, `x-*`) are ignored (strict: false). The
// spec's schemas are open to unknown members, and so is this validator: it adds no strictness.

import {
  createValidatorFactory,
  getAt,
  joinPointer,
  resolveLocal,
  type ErrorObject,
  type OpenApiDocument,
} from '../../spec/index.ts';
import { isObject, parseJson } from '../../spec/json.ts';
import type { SpecProblem } from '../model/exchange.ts';
import { rewriteDiscriminators } from './discriminators.ts';
import { createPathMatcher } from './pathTemplates.ts';

const MAX_PROBLEMS = 10;

export interface ResponseToValidate {
  method: string;
  /** Request path relative to the base URL (a leading `/api` is stripped when nothing matches). */
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer | string | undefined;
}

export interface OperationMatch {
  method: string;
  template: string;
  params: Record<string, string>;
  /** JSON pointer of the operation object in the bundled spec. */
  pointer: string;
  operation: Record<string, unknown>;
}

/** A response valid in the interface-only layer but not in the full spec: it differs from our decisions. */
export interface DecisionDeviation {
  /** The DEC ids of the relaxations that let it pass. */
  decisions: string[];
  /** What the full spec found. */
  problems: SpecProblem[];
}

export interface ResponseValidator {
  findOperation(method: string, path: string): OperationMatch | undefined;
  validate(response: ResponseToValidate): SpecProblem[];
  /** Layered validators (contractLayers.ts): the deviation of a response that `validate` accepted. */
  deviation?(response: ResponseToValidate): DecisionDeviation | undefined;
  /**
   * Layered validators: the decisions a value at `pointer` of an instance of the schema at
   * `schemaRef` belongs to (none: the interface itself speaks there).
   */
  decidedAt?(schemaRef: string, pointer: string): string[];
  /** Validates a value against the schema at `pointer` (e.g. `/components/schemas/CallbackBody`). */
  validateSchema(pointer: string, value: unknown): SpecProblem[];
}

export interface ResponseValidatorOptions {
  /** Prefixes tried when a path does not match as given. Default: ['/api']. */
  basePaths?: readonly string[];
}

type Obj = Record<string, unknown>;

function headerValue(headers: ResponseToValidate['headers'], name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== lower || value === undefined) continue;
    return Array.isArray(value) ? value.join(', ') : value;
  }
  return undefined;
}

export function mediaTypeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
}

function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

function matchesMediaRange(range: string, mediaType: string): boolean {
  const r = range.toLowerCase().split(';')[0]!.trim();
  if (r === '*/*' || r === mediaType) return true;
  return r.endsWith('/*') && mediaType.startsWith(r.slice(0, -1));
}

/** Header values are strings; coerce them to the schema's type before validating. */
function coerceHeader(value: string, schema: unknown): unknown {
  const type = isObject(schema) ? schema.type : undefined;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim());
  if (type === 'boolean' && /^(true|false)$/.test(value.trim())) return value.trim() === 'true';
  if (type === 'array') return value.split(',').map((v) => v.trim());
  return value;
}

function preview(value: unknown, limit = 200): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  if (text === undefined || text.length <= limit) return value;
  return `${text.slice(0, limit)}…`;
}

function describeExpected(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `type ${String(p.type)}`;
    case 'required':
      return `property "${String(p.missingProperty)}" present`;
    case 'const':
      return `the constant ${JSON.stringify(p.allowedValue)}`;
    case 'enum':
      return `one of ${JSON.stringify(p.allowedValues)}`;
    case 'format':
      return `format "${String(p.format)}"`;
    case 'pattern':
      return `a string matching ${String(p.pattern)}`;
    case 'additionalProperties':
      return `no property "${String(p.additionalProperty)}"`;
    default:
      return `${error.keyword} ${error.message ?? ''}`.trim();
  }
}

const META_KEYWORDS = new Set(['if', 'oneOf', 'anyOf', 'allOf', 'not', 'then', 'else']);

/** Turns ajv errors into problems, dropping combinator summaries when a concrete error exists. */
function toProblems(errors: readonly ErrorObject[], data: unknown, specPointer: string): SpecProblem[] {
  const concrete = errors.filter((e) => !META_KEYWORDS.has(e.keyword));
  const chosen = concrete.length > 0 ? concrete : errors;
  const seen = new Set<string>();
  const problems: SpecProblem[] = [];
  for (const error of chosen) {
    const pointer =
      error.keyword === 'required'
        ? joinPointer(error.instancePath, String((error.params as Obj).missingProperty))
        : error.instancePath;
    const key = `${pointer}|${error.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const received = error.keyword === 'required' ? undefined : preview(getAt(data, error.instancePath));
    problems.push({
      kind: 'body',
      pointer,
      message: `${pointer || '(root)'} ${error.keyword === 'required' ? 'is missing' : (error.message ?? 'is invalid')}`,
      received: error.keyword === 'required' ? '(absent)' : received,
      expected: describeExpected(error),
      specPointer: `${specPointer} (${error.schemaPath})`,
    });
    if (problems.length >= MAX_PROBLEMS) break;
  }
  return problems;
}

export function createResponseValidator(
  document: OpenApiDocument,
  options: ResponseValidatorOptions = {},
): ResponseValidator {
  const basePaths = options.basePaths ?? ['/api'];
  const validatorAt = createValidatorFactory(rewriteDiscriminators(document), { warnings: false });

  const paths = (document.paths ?? {}) as Obj;
  const matchPath = createPathMatcher(Object.keys(paths));

  function findOperation(method: string, path: string): OperationMatch | undefined {
    const m = method.toLowerCase();
    const candidates = [path, ...basePaths.filter((b) => path.startsWith(`${b}/`)).map((b) => path.slice(b.length))];
    for (const candidate of candidates) {
      const match = matchPath(candidate.split('?')[0]!);
      if (!match) continue;
      const item = resolveLocal<Obj>(document, paths[match.template], joinPointer('/paths', match.template));
      const operation = item.value?.[m];
      if (!isObject(operation)) continue;
      return {
        method: m,
        template: match.template,
        params: match.params,
        pointer: joinPointer(item.pointer, m),
        operation,
      };
    }
    return undefined;
  }

  function validateHeaders(response: Obj, responsePointer: string, res: ResponseToValidate): SpecProblem[] {
    const problems: SpecProblem[] = [];
    const headers = isObject(response.headers) ? response.headers : {};
    for (const [name, raw] of Object.entries(headers)) {
      if (name.toLowerCase() === 'content-type') continue; // OpenAPI: ignored when defined
      const header = resolveLocal<Obj>(document, raw, joinPointer(responsePointer, 'headers', name));
      const value = headerValue(res.headers, name);
      if (value === undefined) {
        if (header.value?.required === true) {
          problems.push({
            kind: 'header',
            pointer: `header/${name}`,
            message: `required header ${name} is missing`,
            received: '(absent)',
            expected: `header ${name}`,
            specPointer: header.pointer,
          });
        }
        continue;
      }
      if (!isObject(header.value) || header.value.schema === undefined) continue;
      const schemaPointer = joinPointer(header.pointer, 'schema');
      const schema = resolveLocal(document, header.value.schema, schemaPointer).value;
      const coerced = coerceHeader(value, schema);
      const validate = validatorAt(schemaPointer);
      if (!validate(coerced)) {
        const first = toProblems(validate.errors ?? [], coerced, schemaPointer)[0];
        problems.push({
          kind: 'header',
          pointer: `header/${name}`,
          message: `header ${name} is invalid: ${first?.expected ? `expected ${first.expected}` : 'does not match its schema'}`,
          received: value,
          expected: first?.expected,
          specPointer: schemaPointer,
        });
      }
    }
    return problems;
  }

  function validateBody(response: Obj, responsePointer: string, res: ResponseToValidate, label: string): SpecProblem[] {
    const bytes =
      res.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(res.body) ? res.body : Buffer.from(res.body);
    const contentType = headerValue(res.headers, 'content-type');
    const mediaType = mediaTypeOf(contentType);
    const content = isObject(response.content) ? response.content : undefined;
    const documented = content ? Object.keys(content) : [];
    if (documented.length === 0) {
      if (bytes.length === 0) return [];
      return [
        {
          kind: 'content-type',
          pointer: 'content-type',
          message: `${label} documents no body, but one was sent (${contentType ?? 'no Content-Type'})`,
          received: contentType ?? '(absent)',
          expected: 'no body',
          specPointer: responsePointer,
        },
      ];
    }
    if (bytes.length === 0) {
      if (response['x-body-optional'] === true) return [];
      return [
        {
          kind: 'body',
          pointer: '',
          message: `${label} documents a body (${documented.join(', ')}), but it was empty`,
          received: '(empty body)',
          expected: documented.join(' or '),
          specPointer: responsePointer,
        },
      ];
    }
    if (!mediaType) {
      return [
        {
          kind: 'content-type',
          pointer: 'content-type',
          message: `${label} has a body but no Content-Type header`,
          received: '(absent)',
          expected: documented.join(' or '),
          specPointer: responsePointer,
        },
      ];
    }
    const key = documented.find((k) => matchesMediaRange(k, mediaType));
    if (key === undefined) {
      return [
        {
          kind: 'content-type',
          pointer: 'content-type',
          message: `Content-Type ${mediaType} is not documented for ${label}`,
          received: contentType,
          expected: documented.join(' or '),
          specPointer: joinPointer(responsePointer, 'content'),
        },
      ];
    }
    const media = resolveLocal<Obj>(document, content![key], joinPointer(responsePointer, 'content', key));
    if (!isObject(media.value) || media.value.schema === undefined || !isJsonMediaType(mediaType)) return [];
    let data: unknown;
    try {
      data = parseJson(bytes.toString('utf8'));
    } catch (error) {
      return [
        {
          kind: 'body',
          pointer: '',
          message: `the body is not valid JSON although Content-Type is ${mediaType}: ${(error as Error).message}`,
          received: bytes.toString('utf8', 0, 200),
          expected: 'JSON',
          specPointer: media.pointer,
        },
      ];
    }
    const schemaPointer = joinPointer(media.pointer, 'schema');
    const validate = validatorAt(schemaPointer);
    return validate(data) ? [] : toProblems(validate.errors ?? [], data, schemaPointer);
  }

  function validate(res: ResponseToValidate): SpecProblem[] {
    const op = findOperation(res.method, res.path);
    const label = `${res.method.toUpperCase()} ${res.path.split('?')[0]} → ${res.status}`;
    if (!op) {
      return [
        {
          kind: 'operation',
          message: `the spec has no operation ${res.method.toUpperCase()} ${res.path.split('?')[0]}`,
          received: `${res.method.toUpperCase()} ${res.path}`,
          expected: 'a documented operation',
        },
      ];
    }
    const responses = isObject(op.operation.responses) ? op.operation.responses : {};
    const status = String(res.status);
    const key = [status, `${status[0]}XX`, `${status[0]}xx`, 'default'].find((k) => k in responses);
    if (key === undefined) {
      return [
        {
          kind: 'status',
          pointer: 'status',
          message: `status ${status} is not documented for ${res.method.toUpperCase()} ${op.template} (documented: ${Object.keys(responses).join(', ')})`,
          received: res.status,
          expected: Object.keys(responses).join(' or '),
          specPointer: joinPointer(op.pointer, 'responses'),
        },
      ];
    }
    const response = resolveLocal<Obj>(document, responses[key], joinPointer(op.pointer, 'responses', key));
    const fullLabel = `${res.method.toUpperCase()} ${op.template} → ${key}`;
    return [
      ...validateHeaders(response.value, response.pointer, res),
      ...validateBody(response.value, response.pointer, res, fullLabel),
    ];
  }

  function validateSchema(pointer: string, value: unknown): SpecProblem[] {
    const fn = validatorAt(pointer);
    return fn(value) ? [] : toProblems(fn.errors ?? [], value, pointer);
  }

  return { findOperation, validate, validateSchema };
}
