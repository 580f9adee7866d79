// Fault: a detail read with `size` above 2000 answers the lists' size rejection (breaks DETAIL-002:
// detail reads are not subject to the page-size cap).

import type { FaultModifier } from '../faultProxy.ts';
import { detailId, jsonAnswer, urlOf } from '../traffic.ts';

export function detailSizeCapped(max = 2000): FaultModifier {
  return {
    name: 'detailSizeCapped',
    request(req) {
      const size = Number(urlOf(req).searchParams.get('size'));
      if (!detailId(req) || !Number.isInteger(size) || size <= max) return req;
      return {
        ...req,
        answer: jsonAnswer(400, {
          status: 400,
          error: 'Bad Request',
          message: `size must not exceed ${max} (requested: ${size})`,
        }),
      };
    },
  };
}
