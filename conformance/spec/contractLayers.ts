// The suite's verdict on a response, from the two layers of the contract: the interface-only
// layer (generated/openapi.interface.json) decides whether it conforms; where it conforms there
// but not to the full spec (generated/openapi.json), the response differs from our decisions
// only, and the deviation names the decisions whose relaxation (`x-relaxed`) let it pass.

import { existsSync } from 'node:fs';
import type { SpecProblem } from '../model/exchange.ts';
import { joinPointer, refTarget, resolveLocal, type OpenApiDocument } from '../../spec/index.ts';
import { createResponseValidator } from './responseValidator.ts';
import type { DecisionDeviation, ResponseToValidate, ResponseValidator } from './responseValidator.ts';
import { isObject } from '../../spec/json.ts';

type Obj = Record<string, unknown>;

/** The interface layer that belongs to a full spec file: `openapi.interface.json` beside `openapi.json`. */
export function interfaceFileFor(specFile: string): string | undefined {
  const file = specFile.replace(/\.json$/, '.interface.json');
  return file !== specFile && existsSync(file) ? file : undefined;
}

const relaxedAt = (node: unknown): string[] =>
  isObject(node) && Array.isArray(node['x-relaxed']) ? node['x-relaxed'].map(String) : [];

/** Every `x-relaxed` in `node` and what its `$ref`s lead to. */
function relaxedWithin(document: OpenApiDocument, node: unknown, seen = new Set<unknown>()): string[] {
  if (typeof node !== 'object' || node === null || seen.has(node)) return [];
  seen.add(node);
  const found = [...relaxedAt(node), ...relaxedWithin(document, refTarget(document, node), seen)];
  for (const child of Object.values(node)) found.push(...relaxedWithin(document, child, seen));
  return found;
}

/** The JSON body schema of a response's content map. */
function jsonSchemaOf(content: Obj): unknown {
  const type = Object.keys(content).find((t) => /json/i.test(t));
  return type === undefined || !isObject(content[type]) ? undefined : content[type].schema;
}

const tokensOf = (pointer: string | undefined): string[] =>
  (pointer ?? '')
    .split('/')
    .slice(1)
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));

/** The schemas `node` stands for: itself, what its `$ref`s lead to, and its allOf/oneOf/anyOf branches. */
function alternatives(document: OpenApiDocument, node: unknown, into: Obj[] = []): Obj[] {
  if (!isObject(node) || into.includes(node)) return into;
  into.push(node);
  alternatives(document, refTarget(document, node), into);
  for (const key of ['allOf', 'oneOf', 'anyOf'])
    for (const branch of Array.isArray(node[key]) ? node[key] : []) alternatives(document, branch, into);
  return into;
}

const decidedBy = (node: Obj): string[] => (Array.isArray(node['x-decided']) ? node['x-decided'].map(String) : []);

/**
 * The schemas at `tokens` below `root`, the `x-relaxed` ids last met on the way (those of the
 * deepest relaxed schema, so a title too long names only the length limit, not every decision
 * relaxed elsewhere in the item), the `x-decided` ids met on it, and whether the way was declared
 * to its end (false: a property no schema on the way names).
 */
function schemasAt(
  document: OpenApiDocument,
  root: unknown,
  tokens: readonly string[],
): { nodes: Obj[]; relaxed: string[]; decided: string[]; declared: boolean } {
  let nodes = alternatives(document, root);
  let relaxed = nodes.flatMap(relaxedAt);
  const decided = nodes.flatMap(decidedBy);
  for (const token of tokens) {
    const next = nodes.flatMap((n) =>
      isObject(n.properties) && token in n.properties
        ? [n.properties[token]]
        : /^\d+$/.test(token) && n.items !== undefined
          ? [n.items]
          : [],
    );
    if (next.length === 0) return { nodes, relaxed, decided, declared: false };
    nodes = next.flatMap((n) => alternatives(document, n));
    const own = nodes.flatMap(relaxedAt);
    if (own.length > 0) relaxed = own;
    decided.push(...nodes.flatMap(decidedBy));
  }
  return { nodes, relaxed, decided, declared: true };
}

/**
 * The decisions that a value at `pointer` of an instance of the schema at `schemaRef` belongs to,
 * or none when the interface itself speaks there: a field the interface layer does not declare
 * (under a relaxed schema) or marks `x-decided` (kept only to check its shape), or a value our spec
 * limits to an enum the interface layer relaxed.
 */
export function decidedAt(
  interfaceLayer: OpenApiDocument,
  full: OpenApiDocument,
  schemaRef: string,
  pointer: string,
): string[] {
  const tokens = tokensOf(pointer);
  const layer = schemasAt(interfaceLayer, { $ref: schemaRef }, tokens);
  if (layer.decided.length > 0) return [...new Set(layer.decided)];
  if (!layer.declared) return [...new Set(layer.relaxed)];
  const hasEnum = (nodes: Obj[]) => nodes.some((n) => Array.isArray(n.enum) || 'const' in n);
  const ours = schemasAt(full, { $ref: schemaRef }, tokens);
  return ours.declared && hasEnum(ours.nodes) && !hasEnum(layer.nodes) ? [...new Set(layer.relaxed)] : [];
}

/**
 * A validator whose verdict is the interface layer's, and which reports a deviation from the
 * full spec. Without a full document it is the interface layer's validator alone.
 */
export function createLayeredValidator(interfaceLayer: OpenApiDocument, full: OpenApiDocument): ResponseValidator {
  const verdict = createResponseValidator(interfaceLayer);
  const ours = createResponseValidator(full);

  /** The decisions a full-spec problem of this response comes from, read off the interface layer. */
  function decisionsOf(res: ResponseToValidate, problems: readonly SpecProblem[]): string[] {
    const op = verdict.findOperation(res.method, res.path);
    if (!op || !isObject(op.operation.responses)) return [];
    const responses = op.operation.responses;
    const status = String(res.status);
    const key = [status, `${status[0]}XX`, `${status[0]}xx`, 'default'].find((k) => k in responses);
    if (key === undefined) return [];
    const response = resolveLocal<Obj>(interfaceLayer, responses[key], joinPointer(op.pointer, 'responses', key)).value;
    const found = new Set<string>();
    for (const problem of problems) {
      if (problem.kind === 'status') {
        const added = isObject(responses['x-relaxed-statuses']) ? responses['x-relaxed-statuses'][status] : undefined;
        for (const id of Array.isArray(added) ? added : []) found.add(String(id));
      } else if (problem.kind === 'header') {
        const name = problem.pointer?.replace(/^header\//, '') ?? '';
        const headers = isObject(response?.headers) ? response.headers : {};
        const header = Object.entries(headers).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
        for (const id of [...relaxedAt(response), ...relaxedWithin(interfaceLayer, header)]) found.add(id);
      } else {
        const schema = isObject(response?.content) ? jsonSchemaOf(response.content) : undefined;
        const along = schema === undefined ? [] : schemasAt(interfaceLayer, schema, tokensOf(problem.pointer)).relaxed;
        const ids = along.length > 0 ? along : relaxedWithin(interfaceLayer, response?.content);
        for (const id of [...relaxedAt(response), ...ids]) found.add(id);
      }
    }
    // A relaxation this function cannot place still names its decisions rather than none.
    return found.size > 0 ? [...found] : relaxedWithin(interfaceLayer, response);
  }

  return {
    findOperation: verdict.findOperation,
    validate: verdict.validate,
    validateSchema: verdict.validateSchema,
    decidedAt: (schemaRef, pointer) => decidedAt(interfaceLayer, full, schemaRef, pointer),
    deviation(res): DecisionDeviation | undefined {
      const problems = ours.validate(res);
      if (problems.length === 0) return undefined;
      return { decisions: decisionsOf(res, problems), problems };
    },
  };
}
