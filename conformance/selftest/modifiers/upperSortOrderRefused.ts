// Fault: assets sortOrder in upper case (ASC, DESC) is refused with 400 (breaks ASSET-014).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonAnswer, urlOf } from '../traffic.ts';

export function upperSortOrderRefused(): FaultModifier {
  return {
    name: 'upperSortOrderRefused',
    request(req) {
      const url = urlOf(req);
      const order = url.searchParams.get('sortOrder');
      if (req.method !== 'GET' || !/\/assets$/.test(url.pathname) || !order || order === order.toLowerCase())
        return req;
      const message = `sortOrder must be asc or desc, not ${order}`;
      return { ...req, answer: jsonAnswer(400, { status: 400, error: 'Bad Request', message }) };
    },
  };
}
