// Fault: PUT /dictionary/propertiesOntology merges the body into the account's ontology instead
// of replacing it: properties left out of the body stay (breaks ONTO-016, removing an entry by
// leaving it out, and ONTO-017, the body is the complete ontology). The proxy reads the current
// ontology and puts the missing properties back into the body.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { ontologyKind } from '../traffic.ts';

type Node = { id?: string; properties?: Node[] };

function ids(nodes: Node[] | undefined, into = new Set<string>()): Set<string> {
  for (const n of nodes ?? []) {
    if (n.id) into.add(n.id);
    ids(n.properties, into);
  }
  return into;
}

/** Puts every node of `current` that is nowhere in the body back under its parent; true if any. */
function merge(target: Node[], current: Node[], present: Set<string>): boolean {
  let changed = false;
  for (const c of current) {
    const same = target.find((t) => t.id === c.id);
    if (same) changed = merge((same.properties ??= []), c.properties ?? [], present) || changed;
    else if (c.id && !present.has(c.id)) {
      target.push(c);
      changed = true;
    }
  }
  return changed;
}

export function ontologyPutMerges(): FaultModifier {
  return {
    name: 'ontologyPutMerges',
    async request(req, tools) {
      if (req.method !== 'PUT' || ontologyKind(req) !== 'properties') return req;
      const body = readJson(req.body) as { propertyCategories?: Node[] } | undefined;
      const now = await tools.upstream({ ...req, method: 'GET', body: Buffer.alloc(0) });
      const current = readJson(now.body) as { propertyCategories?: Node[] } | undefined;
      if (now.status !== 200 || !Array.isArray(body?.propertyCategories) || !current?.propertyCategories) return req;
      const merged = structuredClone(body);
      const categories = merged.propertyCategories!;
      if (!merge(categories, current.propertyCategories, ids(categories))) return req;
      return { ...req, body: jsonBody(merged) };
    },
  };
}
