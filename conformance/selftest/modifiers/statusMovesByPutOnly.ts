// Conforming variation: POST refuses wfstatus rejected, archived and deleted; an item reaches them
// only by PUT ("All other moves between states (for example to rejected, archived, deleted): not
// shown").

import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import { COLLECTIONS, jsonAnswer, urlOf } from '../traffic.ts';

const CREATE_RE = new RegExp(`/(${COLLECTIONS.join('|')})$`);
const BY_PUT_ONLY = ['rejected', 'archived', 'deleted'];

export function statusMovesByPutOnly(): FaultModifier {
  return {
    name: 'statusMovesByPutOnly',
    request(req) {
      if (req.method !== 'POST' || !CREATE_RE.test(urlOf(req).pathname)) return req;
      const status = (readJson(req.body) as { wfstatus?: unknown } | undefined)?.wfstatus;
      if (typeof status !== 'string' || !BY_PUT_ONLY.includes(status)) return req;
      return {
        ...req,
        answer: jsonAnswer(400, {
          status: 400,
          error: 'Bad Request',
          message: `a new item cannot be created with wfstatus ${status}; create it, then change its status`,
        }),
      };
    },
  };
}
