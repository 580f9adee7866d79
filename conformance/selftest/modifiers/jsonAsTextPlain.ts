// Fault: JSON answers are labelled text/plain (breaks API-001: bodies and responses are JSON).

import type { FaultModifier } from '../faultProxy.ts';
import { isJson } from '../traffic.ts';

export function jsonAsTextPlain(): FaultModifier {
  return {
    name: 'jsonAsTextPlain',
    response(res) {
      return isJson(res) ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' } } : res;
    },
  };
}
