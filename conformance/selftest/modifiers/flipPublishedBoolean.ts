// Fault: the legacy `published` boolean disagrees with wfstatus (breaks WF-010, ITEM-017):
// every item in a list or detail answer gets the opposite value.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';

type Item = { published?: unknown };

function flip(item: Item): Item {
  return typeof item?.published === 'boolean' ? { ...item, published: !item.published } : item;
}

export function flipPublishedBoolean(): FaultModifier {
  return {
    name: 'flipPublishedBoolean',
    response(res) {
      if (res.status < 200 || res.status >= 300 || !/json/.test(res.headers['content-type'] ?? '')) return res;
      const body = readJson(res.body);
      if (Array.isArray(body))
        return body.some((i: Item) => typeof i?.published === 'boolean')
          ? { ...res, body: jsonBody(body.map(flip)) }
          : res;
      if (typeof (body as Item | undefined)?.published === 'boolean')
        return { ...res, body: jsonBody(flip(body as Item)) };
      return res;
    },
  };
}
