// Fault: once approved, an item keeps its status: a write with another wfstatus is stored with
// approved, so the item stays live (breaks WF-008: such a write sets that status and takes the
// item offline). The proxy reads the item first and rewrites the PUT's wfstatus.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { COLLECTIONS, urlOf } from '../traffic.ts';

const DETAIL_RE = new RegExp(`/(${COLLECTIONS.join('|')})/[^/]+$`);

export function statusWriteIgnoredWhenApproved(): FaultModifier {
  return {
    name: 'statusWriteIgnoredWhenApproved',
    async request(req, tools) {
      if (req.method !== 'PUT' || !DETAIL_RE.test(urlOf(req).pathname)) return req;
      const body = readJson(req.body) as Record<string, unknown> | undefined;
      if (!body || body.wfstatus === undefined || body.wfstatus === 'approved') return req;
      const current = await tools.upstream({ ...req, method: 'GET', body: Buffer.alloc(0) });
      const stored = readJson(current.body) as { wfstatus?: unknown } | undefined;
      if (current.status !== 200 || stored?.wfstatus !== 'approved') return req;
      return { ...req, body: jsonBody({ ...body, wfstatus: 'approved' }) };
    },
  };
}
