// Fault: an asset's url points at /files/<id>/<filename> instead of {base_url}/assets/<id>/<filename>
// (breaks ASSET-003).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

type Asset = { url?: unknown };

function moved(a: Asset): Asset {
  return typeof a.url === 'string' && a.url.includes('/assets/')
    ? { ...a, url: a.url.replace(/\/assets\/(?=[^/]+\/[^/]+$)/, '/files/') }
    : a;
}

export function assetUrlElsewhere(): FaultModifier {
  return {
    name: 'assetUrlElsewhere',
    response(res, req) {
      if (res.status < 200 || res.status >= 300 || !/\/assets(\/[^/]+)?$/.test(urlOf(req).pathname)) return res;
      const body = readJson(res.body) as (Asset & { results?: Asset[] }) | undefined;
      if (!body) return res;
      const next = Array.isArray(body.results) ? { ...body, results: body.results.map(moved) } : moved(body);
      return JSON.stringify(next) === JSON.stringify(body) ? res : { ...res, body: jsonBody(next) };
    },
  };
}
