// Fault: creating an item answers 200 OK without a Location header instead of 201 Created with
// one (breaks DEC-ITEM-002).

import type { FaultModifier } from '../faultProxy.ts';
import { COLLECTIONS, urlOf } from '../traffic.ts';

const CREATE_RE = new RegExp(`/(${COLLECTIONS.join('|')})$`);

export function createAnswers200(): FaultModifier {
  return {
    name: 'createAnswers200',
    response(res, req) {
      if (req.method !== 'POST' || !CREATE_RE.test(urlOf(req).pathname) || res.status !== 201) return res;
      const { location: _dropped, ...headers } = res.headers;
      return { ...res, status: 200, headers };
    },
  };
}
