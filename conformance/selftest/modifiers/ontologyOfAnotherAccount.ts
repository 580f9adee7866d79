// Fault: a dictionary ontology read without accountId answers another account's ontology, not the
// caller's own (breaks AUTH-008: without accountId the own account is derived from the token).
// The proxy answers the first other account (from userorganisations) whose ontology differs.

import type { FaultModifier, ProxiedRequest } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import { urlOf, withQuery } from '../traffic.ts';

async function accountIds(req: ProxiedRequest, upstream: (r: ProxiedRequest) => Promise<{ body: Buffer }>) {
  const url = urlOf(req).pathname.replace(/\/dictionary\/.*$/, '/dictionary/userorganisations');
  const orgs = readJson((await upstream({ ...req, url })).body);
  const list = Array.isArray(orgs) ? orgs : Object.values((orgs as Record<string, unknown>) ?? {});
  const ids = list.map((o) => (o as { accountId?: unknown })?.accountId).filter((id) => typeof id === 'string');
  return [...new Set(ids as string[])];
}

export function ontologyOfAnotherAccount(): FaultModifier {
  return {
    name: 'ontologyOfAnotherAccount',
    async response(res, req, tools) {
      const url = urlOf(req);
      if (req.method !== 'GET' || res.status !== 200 || url.searchParams.has('accountId')) return res;
      if (!/\/dictionary\/(categorization|properties)Ontology$/.test(url.pathname)) return res;
      const own = res.body.toString('utf8');
      for (const id of await accountIds(req, tools.upstream)) {
        const other = await tools.upstream(withQuery(req, (q) => q.set('accountId', id)));
        if (other.status === 200 && other.body.toString('utf8') !== own) return other;
      }
      return res;
    },
  };
}
