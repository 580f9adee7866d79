// Fault: sortOrder must be upper case; "asc" or "Desc" is a 400 (breaks DEC-LIST-004: any
// letter case).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonAnswer, listCollection, urlOf } from '../traffic.ts';

export function sortOrderCaseSensitive(): FaultModifier {
  return {
    name: 'sortOrderCaseSensitive',
    request(req) {
      const value = urlOf(req).searchParams.get('sortOrder');
      if (!listCollection(req) || value === null || value === 'ASC' || value === 'DESC') return req;
      return {
        ...req,
        answer: jsonAnswer(400, {
          status: 400,
          error: 'Bad Request',
          message: `sortOrder must be ASC or DESC (received: ${value})`,
        }),
      };
    },
  };
}
