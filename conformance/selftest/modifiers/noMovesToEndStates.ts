// Conforming variation: no item can be put into rejected, archived or deleted through the API,
// neither by POST nor by PUT ("All other moves between states (for example to rejected,
// archived, deleted): not shown"). Such moves happen outside the interface, if at all.

import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import { COLLECTIONS, jsonAnswer, urlOf } from '../traffic.ts';

const WRITE_RE = new RegExp(`/(${COLLECTIONS.join('|')})(/[^/]+)?$`);
const OUTSIDE_THE_API = ['rejected', 'archived', 'deleted'];

export function noMovesToEndStates(): FaultModifier {
  return {
    name: 'noMovesToEndStates',
    request(req) {
      if ((req.method !== 'POST' && req.method !== 'PUT') || !WRITE_RE.test(urlOf(req).pathname)) return req;
      const status = (readJson(req.body) as { wfstatus?: unknown } | undefined)?.wfstatus;
      if (typeof status !== 'string' || !OUTSIDE_THE_API.includes(status)) return req;
      return {
        ...req,
        answer: jsonAnswer(400, {
          status: 400,
          error: 'Bad Request',
          message: `wfstatus ${status} is not set through the API`,
        }),
      };
    },
  };
}
