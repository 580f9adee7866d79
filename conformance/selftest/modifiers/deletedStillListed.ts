// Fault: deleted items are not hidden: a list without wfstatus shows them among the others
// (breaks WF-004: deleted means soft-deleted, hidden from normal queries).

import type { FaultModifier } from '../faultProxy.ts';
import { listCollection, withQuery } from '../traffic.ts';

const EVERY_STATUS = 'draft,readyforvalidation,approved,rejected,archived,deleted';

export function deletedStillListed(): FaultModifier {
  return {
    name: 'deletedStillListed',
    request(req) {
      if (!listCollection(req)) return req;
      return withQuery(req, (q) => {
        if (!q.has('wfstatus')) q.set('wfstatus', EVERY_STATUS);
      });
    },
  };
}
