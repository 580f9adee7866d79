// Fault: sorting assets by modified (or lastupdated) puts the assets without modified as the most
// recently changed, as a database does with NULLS LAST in descending order (breaks ASSET-012).
// The proxy re-sorts each answered page.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

type Asset = { modified?: string };

export function neverModifiedSortedNewest(): FaultModifier {
  return {
    name: 'neverModifiedSortedNewest',
    response(res, req) {
      const q = urlOf(req).searchParams;
      const field = q.get('sortField')?.toLowerCase();
      if (req.method !== 'GET' || !/\/assets$/.test(urlOf(req).pathname) || res.status !== 200) return res;
      if (field !== 'modified' && field !== 'lastupdated') return res;
      const body = readJson(res.body) as { results?: Asset[] } | undefined;
      if (!Array.isArray(body?.results)) return res;
      const sign = q.get('sortOrder')?.toLowerCase() === 'desc' ? -1 : 1;
      const key = (a: Asset) => (a.modified ? Date.parse(a.modified) : Number.POSITIVE_INFINITY);
      const results = body.results
        .map((a, i) => ({ a, i }))
        .sort((p, r) => (key(p.a) === key(r.a) ? p.i - r.i : key(p.a) < key(r.a) ? -sign : sign))
        .map(({ a }) => a);
      return results.every((a, i) => a === body.results![i]) ? res : { ...res, body: jsonBody({ ...body, results }) };
    },
  };
}
