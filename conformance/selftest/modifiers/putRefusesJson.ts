// Fault: an update is accepted only as application/merge-patch+json: a PUT with a JSON body is
// refused with 415 (breaks WRITE-002: clients write TRCItems with POST and PUT using a JSON body).

import type { FaultModifier } from '../faultProxy.ts';
import { COLLECTIONS, jsonAnswer, urlOf } from '../traffic.ts';

const ITEMS_RE = new RegExp(`/(${COLLECTIONS.join('|')})(/[^/]+)?$`);

export function putRefusesJson(): FaultModifier {
  return {
    name: 'putRefusesJson',
    request(req) {
      if (req.method !== 'PUT' || !ITEMS_RE.test(urlOf(req).pathname)) return req;
      if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return req;
      return {
        ...req,
        answer: jsonAnswer(415, {
          status: 415,
          error: 'Unsupported Media Type',
          message: 'updates take application/merge-patch+json',
        }),
      };
    },
  };
}
