// Fault: a feed update overwrites an approved item in full, as if it still waited for an editor
// (breaks FEED-002: only calendar and priceElements may change). Around each feed run the proxy
// takes the feed's approved items back to readyforvalidation (with the run's own admin token,
// straight at the target), lets the run overwrite them, and approves them again.

import type { FaultModifier, ProxiedRequest, ProxyTools } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import type { Item } from '../traffic.ts';
import { urlOf } from '../traffic.ts';

const SERVER_SET = ['id', 'creationdate', 'lastupdated', 'published', 'deleted', 'offline', 'externalId', 'isprivate'];

function writable(item: Item, wfstatus: string): Item {
  return { ...Object.fromEntries(Object.entries(item).filter(([k]) => !SERVER_SET.includes(k))), wfstatus };
}

async function put(tools: ProxyTools, run: ProxiedRequest, base: string, item: Item, wfstatus: string): Promise<void> {
  const answer = await tools.upstream({
    method: 'PUT',
    url: `${base}/events/${encodeURIComponent(String(item.id))}`,
    headers: { authorization: run.headers.authorization ?? '', 'content-type': 'application/json' },
    body: jsonBody(writable(item, wfstatus)),
  });
  if (answer.status >= 300)
    throw new Error(`feedOverwritesApproved: PUT of ${String(item.id)} answered ${answer.status}`);
}

export function feedOverwritesApproved(): FaultModifier {
  const demoted = new WeakMap<ProxiedRequest, Item[]>();
  const isRun = (req: ProxiedRequest) =>
    req.method === 'POST' && /\/feeds\/[^/]+\/fetchAndConvertOnce$/.test(urlOf(req).pathname);
  const baseOf = (req: ProxiedRequest) => urlOf(req).pathname.replace(/\/feeds\/[^/]+\/fetchAndConvertOnce$/, '');
  return {
    name: 'feedOverwritesApproved',
    async request(req, tools) {
      if (!isRun(req)) return req;
      const list = await tools.upstream({
        method: 'GET',
        url: `${baseOf(req)}/events?wfstatus=approved&size=2000`,
        headers: { authorization: req.headers.authorization ?? '' },
        body: Buffer.alloc(0),
      });
      const approved = ((readJson(list.body) as Item[] | undefined) ?? []).filter(
        (i) => typeof i.externalId === 'string',
      );
      if (approved.length === 0) return req;
      for (const item of approved) await put(tools, req, baseOf(req), item, 'readyforvalidation');
      const marked = { ...req };
      demoted.set(marked, approved);
      return marked;
    },
    async response(res, req, tools) {
      const items = demoted.get(req);
      if (!items) return res;
      for (const item of items) {
        const now = await tools.upstream({
          method: 'GET',
          url: `${baseOf(req)}/events/${encodeURIComponent(String(item.id))}`,
          headers: { authorization: req.headers.authorization ?? '' },
          body: Buffer.alloc(0),
        });
        const current = readJson(now.body) as Item | undefined;
        if (now.status === 200 && current) await put(tools, req, baseOf(req), current, 'approved');
      }
      return res;
    },
  };
}
