// Fault: the type ontology writes cnetIDs with slashes ("1/1/1") instead of the dotted form
// (breaks ONTO-011).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { ontologyKind } from '../traffic.ts';

type Node = { cnetID?: unknown; child?: Node[] };

function slashed(nodes: Node[]): Node[] {
  return nodes.map((n) => ({
    ...n,
    ...(typeof n.cnetID === 'string' ? { cnetID: n.cnetID.replaceAll('.', '/') } : {}),
    ...(Array.isArray(n.child) ? { child: slashed(n.child) } : {}),
  }));
}

export function typeCnetIdSlashed(): FaultModifier {
  return {
    name: 'typeCnetIdSlashed',
    response(res, req) {
      if (req.method !== 'GET' || ontologyKind(req) !== 'categorization' || res.status !== 200) return res;
      const body = readJson(res.body) as { categorizations?: Node[] } | undefined;
      const before = JSON.stringify(body?.categorizations);
      if (!Array.isArray(body?.categorizations) || !before.includes('.')) return res;
      return { ...res, body: jsonBody({ ...body, categorizations: slashed(body.categorizations) }) };
    },
  };
}
