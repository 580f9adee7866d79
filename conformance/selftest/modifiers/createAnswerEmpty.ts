// Conforming variation: creating an item answers 201 with an empty body; the Location header
// stays ("Response body of item creation: not shown"; our DEC-ITEM-002).

import type { FaultModifier } from '../faultProxy.ts';
import { COLLECTIONS, urlOf } from '../traffic.ts';

const CREATE_RE = new RegExp(`/(${COLLECTIONS.join('|')})$`);

export function createAnswerEmpty(): FaultModifier {
  return {
    name: 'createAnswerEmpty',
    response(res, req) {
      if (req.method !== 'POST' || !CREATE_RE.test(urlOf(req).pathname) || res.status !== 201) return res;
      const { 'content-type': _dropped, ...headers } = res.headers;
      return { ...res, headers, body: Buffer.alloc(0) };
    },
  };
}
