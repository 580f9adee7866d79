// The spec's operations by operationId, with their parameters and response schemas located.

import { getAt, joinPointer, resolveLocal } from './pointer.ts';
import type { OpenApiDocument } from './load.ts';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

type Obj = Record<string, any>;

export interface OperationRef {
  operationId: string;
  method: HttpMethod;
  /** The spec's path template, e.g. `/events/{id}`. */
  path: string;
  /** JSON pointer of the operation object, e.g. `/paths/~1events~1{id}/get`. */
  pointer: string;
  operation: Obj;
  pathItem: Obj;
}

/** Every operation under `paths`, by operationId. */
export function indexOperations(document: OpenApiDocument): Map<string, OperationRef> {
  const index = new Map<string, OperationRef>();
  for (const [path, raw] of Object.entries((document.paths ?? {}) as Obj)) {
    const item = resolveLocal<Obj>(document, raw, joinPointer('/paths', path));
    for (const method of HTTP_METHODS) {
      const operation = item.value?.[method] as Obj | undefined;
      if (operation === undefined) continue;
      const operationId = String(operation.operationId);
      index.set(operationId, {
        operationId,
        method,
        path,
        pointer: joinPointer(item.pointer, method),
        operation,
        pathItem: item.value,
      });
    }
  }
  return index;
}

export interface ParameterRef {
  /** JSON pointer of the parameter object, after its `$ref`s. */
  pointer: string;
  parameter: Obj;
}

/** The path item's and the operation's parameters (the operation's win on name and location). */
export function operationParameters(document: OpenApiDocument, op: OperationRef): ParameterRef[] {
  const itemPointer = op.pointer.slice(0, op.pointer.lastIndexOf('/'));
  const listed = (owner: Obj, pointer: string): ParameterRef[] =>
    ((owner.parameters ?? []) as unknown[]).map((node, i) => {
      const { value, pointer: at } = resolveLocal<Obj>(document, node, joinPointer(pointer, 'parameters', i));
      return { pointer: at, parameter: value };
    });
  const own = listed(op.operation, op.pointer);
  const key = (p: ParameterRef) => `${p.parameter.in} ${p.parameter.name}`;
  const overridden = new Set(own.map(key));
  return [...listed(op.pathItem, itemPointer).filter((p) => !overridden.has(key(p))), ...own];
}

/**
 * JSON pointer of the schema of `op`'s `status` response in `mediaType` (a `$ref`ed response at its
 * component), or undefined when that response or media type has none.
 */
export function responseSchemaPointer(
  document: OpenApiDocument,
  op: OperationRef,
  status: number | string,
  mediaType = 'application/json',
): string | undefined {
  const raw = (op.operation.responses as Obj | undefined)?.[String(status)];
  if (raw === undefined) return undefined;
  const response = resolveLocal<Obj>(document, raw, joinPointer(op.pointer, 'responses', String(status)));
  const pointer = joinPointer(response.pointer, 'content', mediaType, 'schema');
  return getAt(document, pointer) === undefined ? undefined : pointer;
}
