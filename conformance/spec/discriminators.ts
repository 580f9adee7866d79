// ajv reports every branch of a failed `oneOf`, which buries the real error under "entitytype
// must be equal to constant" from the branches that never applied. Where a `oneOf` has a
// `discriminator` and every branch pins the property with `const`/`enum`, this rewrites it into
// an equivalent `if`/`then` per branch, so ajv reports only the branch the value selects.
// The rewrite is applied to a copy of the spec handed to ajv; pointers stay valid.

import { resolveRef } from '../../spec/index.ts';
import { isObject } from '../../spec/json.ts';

type Node = Record<string, unknown>;

/** The node a `$ref` chain leads to, followed by the spec package's resolver. */
const deref = (root: unknown, node: unknown): unknown => resolveRef(root, node);

/** The values a branch allows for `property`, found through $ref and allOf. */
function pinnedValues(root: unknown, branch: unknown, property: string, depth = 0): unknown[] | undefined {
  const node = deref(root, branch);
  if (!isObject(node) || depth > 16) return undefined;
  const prop = deref(root, isObject(node.properties) ? node.properties[property] : undefined);
  if (isObject(prop)) {
    if ('const' in prop) return [prop.const];
    if (Array.isArray(prop.enum)) return prop.enum;
  }
  if (Array.isArray(node.allOf)) {
    for (const part of node.allOf) {
      const found = pinnedValues(root, part, property, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

function rewriteNode(root: unknown, node: Node): void {
  const discriminator = node.discriminator;
  if (!isObject(discriminator) || typeof discriminator.propertyName !== 'string' || !Array.isArray(node.oneOf)) return;
  const property = discriminator.propertyName;
  const branches = node.oneOf as unknown[];
  const values = branches.map((b) => pinnedValues(root, b, property));
  if (values.some((v) => v === undefined || v.length === 0)) return;
  const all = values.flat();
  if (new Set(all.map((v) => JSON.stringify(v))).size !== all.length) return; // not disjoint: keep oneOf
  const original = branches;
  delete node.oneOf;
  node.allOf = [
    ...(Array.isArray(node.allOf) ? node.allOf : []),
    {
      if: { required: [property] },
      then: { properties: { [property]: { enum: all } } },
      else: { oneOf: original },
    },
    ...branches.map((branch, i) => ({
      if: { required: [property], properties: { [property]: { enum: values[i] } } },
      then: branch,
    })),
  ];
}

/** A deep copy of `document` with discriminated oneOfs rewritten (see above). */
export function rewriteDiscriminators<T>(document: T): T {
  const copy = structuredClone(document);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    for (const value of Object.values(node)) visit(value);
    rewriteNode(copy, node);
  };
  visit(copy);
  return copy;
}
