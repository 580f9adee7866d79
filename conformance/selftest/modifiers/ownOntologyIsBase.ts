// Fault: an ontology read without accountId always answers the base ontology, even when the
// caller's own account has an override (breaks DICT-002). The proxy asks for an account on the base.

import type { FaultModifier } from '../faultProxy.ts';
import { baseAccount, ontologyKind, urlOf } from '../traffic.ts';

export function ownOntologyIsBase(): FaultModifier {
  return {
    name: 'ownOntologyIsBase',
    async request(req, tools) {
      const kind = ontologyKind(req);
      if (req.method !== 'GET' || !kind || urlOf(req).searchParams.has('accountId')) return req;
      const account = await baseAccount(req, tools, kind);
      if (!account) return req;
      const url = urlOf(req);
      url.searchParams.set('accountId', account);
      return { ...req, url: url.pathname + url.search };
    },
  };
}
