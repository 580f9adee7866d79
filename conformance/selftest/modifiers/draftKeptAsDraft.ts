// Fault: a save with wfstatus draft, or without a wfstatus, leaves the item a draft instead of
// normalising it to readyforvalidation (breaks WF-007).

import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function draftKeptAsDraft(): FaultModifier {
  const drafts = new Set<string>();
  return {
    name: 'draftKeptAsDraft',
    request(req) {
      if (req.method !== 'POST' && req.method !== 'PUT') return req;
      const body = readJson(req.body) as { trcid?: unknown; wfstatus?: unknown } | undefined;
      if (typeof body?.trcid !== 'string') return req;
      if (body.wfstatus === undefined || body.wfstatus === 'draft') drafts.add(body.trcid);
      else drafts.delete(body.trcid);
      return req;
    },
    response(res) {
      return mapItems(res, (item) =>
        drafts.has(String(item.trcid)) && item.wfstatus === 'readyforvalidation'
          ? { ...item, wfstatus: 'draft' }
          : item,
      );
    },
  };
}
