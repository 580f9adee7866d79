// Fault: an archived item cannot be published again: a write with wfstatus approved leaves it
// archived (breaks WF-009: approved publishes the item from any status). The proxy reads the item
// first and rewrites the PUT's wfstatus.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { COLLECTIONS, urlOf } from '../traffic.ts';

const DETAIL_RE = new RegExp(`/(${COLLECTIONS.join('|')})/[^/]+$`);

export function archivedNeverApproved(): FaultModifier {
  return {
    name: 'archivedNeverApproved',
    async request(req, tools) {
      if (req.method !== 'PUT' || !DETAIL_RE.test(urlOf(req).pathname)) return req;
      const body = readJson(req.body) as Record<string, unknown> | undefined;
      if (body?.wfstatus !== 'approved') return req;
      const current = await tools.upstream({ ...req, method: 'GET', body: Buffer.alloc(0) });
      const stored = readJson(current.body) as { wfstatus?: unknown } | undefined;
      if (current.status !== 200 || stored?.wfstatus !== 'archived') return req;
      return { ...req, body: jsonBody({ ...body, wfstatus: 'archived' }) };
    },
  };
}
