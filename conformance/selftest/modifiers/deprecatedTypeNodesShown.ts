// Fault: the type ontology keeps its deprecated nodes in the default answer (breaks ONTO-012).
// The proxy asks the target for includeDeprecated=true whenever the request does not say.

import type { FaultModifier } from '../faultProxy.ts';
import { ontologyKind, withQuery } from '../traffic.ts';

export function deprecatedTypeNodesShown(): FaultModifier {
  return {
    name: 'deprecatedTypeNodesShown',
    request(req) {
      if (req.method !== 'GET' || ontologyKind(req) !== 'categorization') return req;
      return withQuery(req, (q) => {
        if (!q.has('includeDeprecated')) q.set('includeDeprecated', 'true');
      });
    },
  };
}
