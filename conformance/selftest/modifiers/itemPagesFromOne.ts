// Conforming variation: the item lists count `page` from 1 ("how `page` combines with `size`: not
// shown"; our DEC-LIST-002 counts from 0). Page 0 is refused; the proxy shifts the others down.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonAnswer, listCollection, urlOf } from '../traffic.ts';

export function itemPagesFromOne(): FaultModifier {
  return {
    name: 'itemPagesFromOne',
    request(req) {
      const url = urlOf(req);
      if (!listCollection(req) || !url.searchParams.has('page')) return req;
      const page = Number(url.searchParams.get('page'));
      if (!Number.isInteger(page) || page < 1)
        return {
          ...req,
          answer: jsonAnswer(400, { status: 400, error: 'Bad Request', message: 'page counts from 1' }),
        };
      url.searchParams.set('page', String(page - 1));
      return { ...req, url: `${url.pathname}${url.search}` };
    },
  };
}
