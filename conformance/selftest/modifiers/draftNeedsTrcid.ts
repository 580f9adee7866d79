// Fault: creating an item without a trcid is refused with 400, as if trcid were required
// (breaks WRITE-001: every field of a draft is optional; ITEM-021: the server makes the trcid).
// The item the target did create is soft-deleted by the suite's cleanup like any other.

import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import { COLLECTIONS, jsonAnswer, urlOf } from '../traffic.ts';

const CREATE_RE = new RegExp(`/(${COLLECTIONS.join('|')})$`);

export function draftNeedsTrcid(): FaultModifier {
  return {
    name: 'draftNeedsTrcid',
    response(res, req) {
      if (req.method !== 'POST' || !CREATE_RE.test(urlOf(req).pathname) || res.status >= 300) return res;
      const draft = readJson(req.body) as { trcid?: unknown } | undefined;
      if (typeof draft?.trcid === 'string' && draft.trcid !== '') return res;
      return jsonAnswer(400, { status: 400, error: 'Bad Request', message: 'trcid is required' });
    },
  };
}
