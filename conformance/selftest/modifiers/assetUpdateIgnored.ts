// Fault: PUT /assets/{id} answers 200 with the asset as it was: the metadata is not updated
// (breaks ASSET-007). The proxy answers with the asset read from the target's list, and with an
// entity tag of that answer, as a service that ignores the update would (DEC-ASSET-011 still holds).

import { createHash } from 'node:crypto';
import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import { jsonAnswer, urlOf } from '../traffic.ts';

export function assetUpdateIgnored(): FaultModifier {
  return {
    name: 'assetUpdateIgnored',
    async request(req, tools) {
      const m = /^(.*\/assets)\/([^/]+)$/.exec(urlOf(req).pathname);
      if (req.method !== 'PUT' || !m) return req;
      const list = await tools.upstream({
        ...req,
        method: 'GET',
        url: `${m[1]}?size=1000&sortField=date&sortOrder=desc`,
        body: Buffer.alloc(0),
      });
      const asset = (readJson(list.body) as { results?: { id?: string }[] } | undefined)?.results?.find(
        (a) => a.id === decodeURIComponent(m[2]!),
      );
      if (!asset) return req;
      const etag = `"${createHash('sha256').update(JSON.stringify(asset)).digest('base64url')}"`;
      return { ...req, answer: jsonAnswer(200, asset, { etag }) };
    },
  };
}
