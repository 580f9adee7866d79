// Fault: an item waiting in readyforvalidation is served to consumers as if it were live, in
// lists and detail reads (breaks WF-005: every status other than approved is hidden from them).
// The proxy asks with the full token and keeps approved and readyforvalidation items.

import type { FaultModifier } from '../faultProxy.ts';
import { bearerOf, detailId, jsonAnswer, listCollection, mapItems, mapList, withBearer } from '../traffic.ts';

const SHOWN = new Set(['approved', 'readyforvalidation']);

export function consumersSeeWaitingItems(tokens: { consumer: string; full: string }): FaultModifier {
  const asked = new WeakSet<object>();
  return {
    name: 'consumersSeeWaitingItems',
    request(req) {
      if (bearerOf(req) !== tokens.consumer || !(listCollection(req) || detailId(req))) return req;
      const next = withBearer(req, tokens.full);
      asked.add(next);
      return next;
    },
    response(res, req) {
      if (!asked.has(req)) return res;
      if (listCollection(req)) return mapList(res, (items) => items.filter((i) => SHOWN.has(String(i.wfstatus))));
      let hidden = false;
      const checked = mapItems(res, (item) => {
        hidden = !SHOWN.has(String(item.wfstatus));
        return item;
      });
      return hidden ? jsonAnswer(404, { status: 404, error: 'Not Found', message: 'Item not found' }) : checked;
    },
  };
}
