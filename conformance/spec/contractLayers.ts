// The suite's verdict on a response, from the two layers of the contract: the interface-only
// layer (generated/openapi.interface.json) decides whether it conforms; where it conforms there
// but not to the full spec (generated/openapi.json), the response differs from our decisions
// only, and the deviation names the decisions whose relaxation (`x-relaxed`) let it pass.

import { existsSync } from 'node:fs';
import type { SpecProblem } from '../model/exchange.ts';
import { getAt, joinPointer, resolveLocal, type OpenApiDocument } from '../../spec/index.ts';
import { createResponseValidator } from './responseValidator.ts';
import type { DecisionDeviation, ResponseToValidate, ResponseValidator } from './responseValidator.ts';

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

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
  const found = relaxedAt(node);
  const ref = (node as Obj).$ref;
  if (typeof ref === 'string' && ref.startsWith('#'))
    found.push(...relaxedWithin(document, getAt(document, ref), seen));
  for (const child of Object.values(node)) found.push(...relaxedWithin(document, child, seen));
  return found;
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
        for (const id of [...relaxedAt(response), ...relaxedWithin(interfaceLayer, response?.content)]) found.add(id);
      }
    }
    // A relaxation this function cannot place still names its decisions rather than none.
    return found.size > 0 ? [...found] : relaxedWithin(interfaceLayer, response);
  }

  return {
    findOperation: verdict.findOperation,
    validate: verdict.validate,
    validateSchema: verdict.validateSchema,
    deviation(res): DecisionDeviation | undefined {
      const problems = ours.validate(res);
      if (problems.length === 0) return undefined;
      return { decisions: decisionsOf(res, problems), problems };
    },
  };
}
