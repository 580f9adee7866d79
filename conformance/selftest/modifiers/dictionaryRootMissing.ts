// Fault: the service has no root dictionary collection: GET /dictionary answers 404 (breaks
// DICT-006).

import type { FaultModifier } from '../faultProxy.ts';
import { endpointOf, jsonAnswer } from '../traffic.ts';

export function dictionaryRootMissing(): FaultModifier {
  return {
    name: 'dictionaryRootMissing',
    request(req) {
      if (req.method !== 'GET' || endpointOf(req) !== '/dictionary') return req;
      return { ...req, answer: jsonAnswer(404, { status: 404, error: 'Not Found', message: 'Not Found' }) };
    },
  };
}
