// Fault: a deleted item still reads 200 (its last state) at its resourceUri instead of 404
// (breaks HOOK-004).

import type { FaultModifier, ProxiedResponse } from '../faultProxy.ts';
import { detailId, urlOf } from '../traffic.ts';

export function resourceUriAliveAfterDelete(): FaultModifier {
  const lastSeen = new Map<string, ProxiedResponse>();
  return {
    name: 'resourceUriAliveAfterDelete',
    response(res, req) {
      if (!detailId(req)) return res;
      const path = urlOf(req).pathname;
      if (res.status === 200) lastSeen.set(path, res);
      return res.status === 404 && lastSeen.has(path) ? lastSeen.get(path)! : res;
    },
  };
}
