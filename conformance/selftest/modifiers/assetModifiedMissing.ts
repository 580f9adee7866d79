// Fault: an asset never shows modified, even after its metadata was changed (breaks ASSET-001:
// modified is present when the asset was changed).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

type Asset = { id?: unknown; modified?: unknown };

function withoutModified(a: Asset): Asset {
  const { modified: _lost, ...rest } = a;
  return rest;
}

export function assetModifiedMissing(): FaultModifier {
  return {
    name: 'assetModifiedMissing',
    response(res, req) {
      if (res.status !== 200 || !/\/assets(\/[^/]+)?$/.test(urlOf(req).pathname)) return res;
      const body = readJson(res.body) as (Asset & { results?: Asset[] }) | undefined;
      if (Array.isArray(body?.results) && body.results.some((a) => a.modified !== undefined))
        return { ...res, body: jsonBody({ ...body, results: body.results.map(withoutModified) }) };
      if (body?.id !== undefined && body.modified !== undefined)
        return { ...res, body: jsonBody(withoutModified(body)) };
      return res;
    },
  };
}
