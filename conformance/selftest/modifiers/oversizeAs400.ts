// Fault: an upload over the size limit is refused with 400 instead of 413 (breaks ERR-003).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function oversizeAs400(): FaultModifier {
  return {
    name: 'oversizeAs400',
    response(res, req) {
      if (req.method !== 'POST' || !/\/assets$/.test(urlOf(req).pathname) || res.status !== 413) return res;
      const body = readJson(res.body) as Record<string, unknown> | undefined;
      return { ...res, status: 400, body: body ? jsonBody({ ...body, status: 400, error: 'Bad Request' }) : res.body };
    },
  };
}
