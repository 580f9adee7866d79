import { readFileSync } from 'node:fs';

// The bundled spec (generated/openapi.json) is the single source of truth for request
// validation. Loaded once; everything here reads it, nothing writes it.

export type JsonObject = Record<string, unknown>;

export const OPENAPI_PATH = new URL('../../../generated/openapi.json', import.meta.url);

let cached: JsonObject | undefined;

export function loadOpenApiDocument(): JsonObject {
  cached ??= JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as JsonObject;
  return cached;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

export interface OperationRef {
  operationId: string;
  method: (typeof HTTP_METHODS)[number];
  /** The spec's path template, e.g. `/events/{id}`. */
  path: string;
  /** JSON pointer of the operation object, e.g. `#/paths/~1events~1{id}/get`. */
  pointer: string;
  operation: JsonObject;
  pathItem: JsonObject;
}

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Every operation of the document, by operationId. */
export function indexOperations(doc: JsonObject): Map<string, OperationRef> {
  const index = new Map<string, OperationRef>();
  const paths = (doc.paths ?? {}) as Record<string, JsonObject>;
  for (const [path, pathItem] of Object.entries(paths)) {
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method] as JsonObject | undefined;
      if (operation === undefined) continue;
      const operationId = String(operation.operationId);
      index.set(operationId, {
        operationId,
        method,
        path,
        pathItem,
        operation,
        pointer: `#/paths/${escapePointer(path)}/${method}`,
      });
    }
  }
  return index;
}

/** Follows local `$ref`s (`#/components/...`) until a non-reference object. */
export function resolveRef<T = JsonObject>(doc: JsonObject, node: unknown): T {
  let current = node as JsonObject;
  for (let hops = 0; current !== null && typeof current === 'object' && typeof current.$ref === 'string'; hops += 1) {
    if (hops > 32) throw new Error(`resolveRef: reference cycle at ${String(current.$ref)}`);
    current = pointerGet(doc, current.$ref as string) as JsonObject;
  }
  return current as T;
}

export function pointerGet(doc: JsonObject, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local references are supported (received: ${ref})`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as JsonObject | undefined)?.[key];
    if (node === undefined) throw new Error(`unresolvable reference ${ref}`);
  }
  return node;
}
