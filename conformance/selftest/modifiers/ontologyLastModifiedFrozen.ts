// Fault: an ontology's lastModified is set once and never changes, even after the ontology is
// replaced (breaks ONTO-010).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { bearerOf, ontologyKind, urlOf } from '../traffic.ts';

export function ontologyLastModifiedFrozen(): FaultModifier {
  const first = new Map<string, unknown>();
  return {
    name: 'ontologyLastModifiedFrozen',
    response(res, req) {
      const kind = ontologyKind(req);
      if (req.method !== 'GET' || !kind || res.status !== 200) return res;
      const body = readJson(res.body) as { lastModified?: unknown } | undefined;
      if (!body || body.lastModified === undefined) return res;
      const key = `${kind}|${urlOf(req).searchParams.get('accountId') ?? `token ${bearerOf(req)}`}`;
      if (!first.has(key)) first.set(key, body.lastModified);
      const frozen = first.get(key);
      return frozen === body.lastModified ? res : { ...res, body: jsonBody({ ...body, lastModified: frozen }) };
    },
  };
}
