// The interface-only layer of the contract: the bundled spec with every `x-interface` relaxation
// applied (spec/EXTENSIONS.md), so that it holds what the interface text requires and no more of
// our decisions than the text allows. The suite validates responses against it; a response that
// passes it but not the full spec differs from us only in a decision.
//
// Each relaxed node keeps the DEC ids it relaxes in `x-relaxed`; a status a response was made to
// stand for is listed in its operation's `responses` under `x-relaxed-statuses`.

import { getAt, refTarget } from '../../spec/index.ts';
import { isObject } from '../../spec/json.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface InterfaceRelaxation {
  /** JSON pointer of the node that carries `x-interface` in the bundled spec. */
  pointer: string;
  decisions: string[];
  /** JSON Merge Patch (RFC 7396) of the node itself. */
  patch?: JsonObject;
  /** On a response: other statuses it stands for where an operation does not document them. */
  statuses?: string[];
  /** On a schema: JSON Merge Patch of every response whose only body schema is this one. */
  responsePatch?: JsonObject;
  /** On a schema: keywords removed from it and from every schema it reaches, `$ref`s followed. */
  dropKeywords?: string[];
}

const escape = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

/** RFC 7396: objects merge key by key, `null` removes a key, anything else replaces. */
export function mergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** Every `x-interface` of the document, in document order. */
export function listRelaxations(document: Record<string, unknown>): InterfaceRelaxation[] {
  const found: InterfaceRelaxation[] = [];
  const visit = (node: Json, pointer: string) => {
    if (Array.isArray(node)) return node.forEach((child, i) => visit(child, `${pointer}/${i}`));
    if (!isObject(node)) return;
    const spec = node['x-interface'];
    if (isObject(spec)) {
      const decisions = Array.isArray(spec.decisions) ? spec.decisions.map(String) : [];
      found.push({
        pointer,
        decisions,
        ...(isObject(spec.patch) ? { patch: spec.patch } : {}),
        ...(Array.isArray(spec.statuses) ? { statuses: spec.statuses.map(String) } : {}),
        ...(isObject(spec.responsePatch) ? { responsePatch: spec.responsePatch } : {}),
        ...(Array.isArray(spec.dropKeywords) ? { dropKeywords: spec.dropKeywords.map(String) } : {}),
      });
    }
    for (const [key, child] of Object.entries(node))
      if (key !== 'x-interface') visit(child, `${pointer}/${escape(key)}`);
  };
  visit(document as JsonObject, '');
  return found;
}

const nodeAt = (root: JsonObject, pointer: string) => getAt(root, pointer) as Json | undefined;

function replaceAt(root: JsonObject, pointer: string, value: Json): void {
  const tokens = pointer.split('/').slice(1);
  const last = tokens.pop()!.replaceAll('~1', '/').replaceAll('~0', '~');
  const parent = nodeAt(root, tokens.length ? `/${tokens.join('/')}` : '');
  if (isObject(parent)) parent[last] = value;
  else if (Array.isArray(parent)) parent[Number(last)] = value;
}

/**
 * An array schema a patch left without `items` (`items: null`: any items) gets `items: {}`, which
 * means the same to JSON Schema and keeps the layer valid to linters that want `items` on every
 * array (Spectral's array-items).
 */
function withOpenItems(node: Json): Json {
  if (Array.isArray(node)) return node.map(withOpenItems);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(node))
    out[key] = key.startsWith('x-') || key === 'example' || key === 'examples' ? child : withOpenItems(child);
  const type = out.type;
  const isArray = type === 'array' || (Array.isArray(type) && type.includes('array'));
  if (isArray && !('items' in out) && !('prefixItems' in out)) out.items = {};
  return out;
}

function relaxed(node: Json, patch: JsonObject, decisions: readonly string[]): Json {
  const out = withOpenItems(mergePatch(node, patch)) as JsonObject;
  const before = Array.isArray(out['x-relaxed']) ? out['x-relaxed'].map(String) : [];
  return { ...out, 'x-relaxed': [...new Set([...before, ...decisions])] };
}

/** Every operation's `responses` map (paths and webhooks). */
function responseMaps(root: JsonObject): JsonObject[] {
  const maps: JsonObject[] = [];
  for (const section of ['paths', 'webhooks'])
    for (const item of Object.values(isObject(root[section]) ? root[section] : {}))
      for (const operation of Object.values(isObject(item) ? item : {}))
        if (isObject(operation) && isObject(operation.responses)) maps.push(operation.responses);
  return maps;
}

/** Pointers of every response object: inline in an operation, or under components/responses. */
function responsePointers(root: JsonObject): string[] {
  const pointers: string[] = [];
  for (const section of ['paths', 'webhooks'])
    for (const [path, item] of Object.entries(isObject(root[section]) ? root[section] : {}))
      for (const [method, operation] of Object.entries(isObject(item) ? item : {}))
        if (isObject(operation) && isObject(operation.responses))
          for (const [status, response] of Object.entries(operation.responses))
            if (isObject(response) && !('$ref' in response))
              pointers.push(`/${section}/${escape(path)}/${method}/responses/${escape(status)}`);
  const components = isObject(root.components) && isObject(root.components.responses) ? root.components.responses : {};
  for (const name of Object.keys(components)) pointers.push(`/components/responses/${escape(name)}`);
  return pointers;
}

/** The response's body schemas, when every media type has one that is only a `$ref`. */
function onlyBodyRef(response: Json | undefined): string | undefined {
  if (!isObject(response) || !isObject(response.content)) return undefined;
  const refs = Object.values(response.content).map((media) =>
    isObject(media) && isObject(media.schema) && Object.keys(media.schema).length === 1 ? media.schema.$ref : undefined,
  );
  return refs.length > 0 && refs.every((r) => typeof r === 'string' && r === refs[0]) ? (refs[0] as string) : undefined;
}

const stripExtension = (node: Json): Json => {
  if (Array.isArray(node)) return node.map(stripExtension);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(node)) if (key !== 'x-interface') out[key] = stripExtension(child);
  return out;
};

/** Keys whose values are maps of names to schemas, not schemas (a property may be called `maxLength`). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** Removes `keywords` from the schema at `pointer` and every schema it reaches; marks each it changed. */
function dropKeywords(root: JsonObject, pointer: string, keywords: readonly string[], decisions: readonly string[]) {
  const seen = new Set<Json>();
  const visit = (node: Json | undefined, isMap = false): void => {
    if (Array.isArray(node)) return node.forEach((child) => visit(child));
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    if (isMap) return Object.values(node).forEach((child) => visit(child));
    visit(refTarget(root, node) as Json | undefined);
    const dropped = keywords.filter((k) => k in node);
    for (const k of dropped) delete node[k];
    if (dropped.length > 0) {
      const before = Array.isArray(node['x-relaxed']) ? node['x-relaxed'].map(String) : [];
      node['x-relaxed'] = [...new Set([...before, ...decisions])];
    }
    for (const [key, child] of Object.entries(node))
      if (!key.startsWith('x-') && key !== 'example' && key !== 'examples') visit(child, SCHEMA_MAPS.has(key));
  };
  visit(nodeAt(root, pointer));
}

/** The interface-only layer of a bundled document (which stays untouched). */
export function interfaceLayer(bundled: Record<string, unknown>): Record<string, unknown> {
  const relaxations = listRelaxations(bundled);
  const root = stripExtension(structuredClone(bundled) as Json) as JsonObject;
  // Responses that stand for more statuses: added as references where an operation lacks them.
  for (const r of relaxations.filter((x) => x.statuses)) {
    const ref = `#${r.pointer}`;
    for (const map of responseMaps(root)) {
      if (!Object.values(map).some((response) => isObject(response) && response.$ref === ref)) continue;
      for (const status of r.statuses!) {
        if (status in map) continue;
        map[status] = { $ref: ref };
        const added = isObject(map['x-relaxed-statuses']) ? map['x-relaxed-statuses'] : {};
        map['x-relaxed-statuses'] = { ...added, [status]: r.decisions };
      }
    }
  }
  // Responses whose only body is a relaxed schema take that schema's response patch.
  for (const r of relaxations.filter((x) => x.responsePatch)) {
    for (const pointer of responsePointers(root))
      if (onlyBodyRef(nodeAt(root, pointer)) === `#${r.pointer}`)
        replaceAt(root, pointer, relaxed(nodeAt(root, pointer)!, r.responsePatch!, r.decisions));
  }
  for (const r of relaxations.filter((x) => x.patch))
    replaceAt(root, r.pointer, relaxed(nodeAt(root, r.pointer)!, r.patch!, r.decisions));
  for (const r of relaxations.filter((x) => x.dropKeywords))
    dropKeywords(root, r.pointer, r.dropKeywords!, r.decisions);
  return root;
}
