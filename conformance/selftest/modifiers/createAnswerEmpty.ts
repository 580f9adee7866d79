// Conforming variation: creating an item answers 201 with an empty body; the Location header
// still names the item ("Response body of item creation: not shown"; our DEC-ITEM-002).

import type { FaultModifier } from '../faultProxy.ts';
import { COLLECTIONS, urlOf } from '../traffic.ts';

const CREATE_RE = new RegExp(`/(${COLLECTIONS.join('|')})$`);

export function createAnswerEmpty(options: { keepLocation?: boolean } = {}): FaultModifier {
  const keepLocation = options.keepLocation ?? true;
  return {
    name: keepLocation ? 'createAnswerEmpty' : 'createAnswerNoLocation',
    response(res, req) {
      if (req.method !== 'POST' || !CREATE_RE.test(urlOf(req).pathname) || res.status !== 201) return res;
      const { 'content-type': _type, location, ...headers } = res.headers;
      return {
        status: 201,
        headers: keepLocation && location ? { ...headers, location } : headers,
        body: Buffer.alloc(0),
      };
    },
  };
}
