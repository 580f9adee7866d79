// Conforming variation: GET /assets counts pages from 1 (the interface shows a `page` but not its
// base; our DEC-LIST-009 counts from 0). The proxy shifts the page both ways.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { pageFromOne, urlOf } from '../traffic.ts';

const isAssetList = (path: string) => /\/assets$/.test(path);

export function assetPagesFromOne(): FaultModifier {
  return {
    name: 'assetPagesFromOne',
    request: (req) => (req.method === 'GET' && isAssetList(urlOf(req).pathname) ? pageFromOne(req) : req),
    response(res, req) {
      if (req.method !== 'GET' || !isAssetList(urlOf(req).pathname) || res.status !== 200) return res;
      const body = readJson(res.body) as Record<string, unknown> | undefined;
      if (typeof body?.page !== 'number') return res;
      return { ...res, body: jsonBody({ ...body, page: body.page + 1 }) };
    },
  };
}
