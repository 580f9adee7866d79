// Fault: the service caps the page size at 1000 and refuses size=2000 with a 400 (breaks
// LIMIT-001: the maximum page size is 2000).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonAnswer, listCollection, urlOf } from '../traffic.ts';

export function pageSizeLimit1000(): FaultModifier {
  return {
    name: 'pageSizeLimit1000',
    request(req) {
      const size = Number(urlOf(req).searchParams.get('size'));
      if (!listCollection(req) || !(size > 1000 && size <= 2000)) return req;
      return {
        ...req,
        answer: jsonAnswer(400, {
          status: 400,
          error: 'Bad Request',
          message: `size must not exceed 1000 (requested: ${size})`,
        }),
      };
    },
  };
}
