// Fault: a token creation ignores the name it is given and stores a default one (breaks
// TOKEN-003: POST …/tokens takes name, roles[] and optional callBackUrl).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function tokenNameIgnored(): FaultModifier {
  return {
    name: 'tokenNameIgnored',
    request(req) {
      if (req.method !== 'POST' || !/\/tokens$/.test(urlOf(req).pathname)) return req;
      const body = readJson(req.body) as Record<string, unknown> | undefined;
      if (!body || typeof body.name !== 'string') return req;
      return { ...req, body: jsonBody({ ...body, name: 'API token' }) };
    },
  };
}
