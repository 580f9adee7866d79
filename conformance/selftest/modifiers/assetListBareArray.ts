// Fault: GET /assets answers the bare array of assets instead of the page object {size, page,
// hits, results[]} (breaks ASSET-002).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function assetListBareArray(): FaultModifier {
  return {
    name: 'assetListBareArray',
    response(res, req) {
      if (req.method !== 'GET' || !/\/assets$/.test(urlOf(req).pathname) || res.status !== 200) return res;
      const body = readJson(res.body) as { results?: unknown[] } | undefined;
      return Array.isArray(body?.results) ? { ...res, body: jsonBody(body.results) } : res;
    },
  };
}
