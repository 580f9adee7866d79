// Fault: a feed update of an item waiting in readyforvalidation keeps its titles and descriptions
// (it is treated like an approved item), so not every field is overwritten (breaks FEED-001).
// Around each feed run the proxy notes the trcItemDetails of the feed's readyforvalidation items
// and, once the run has answered, puts them back (with the run's own admin token, straight at
// the target).

import type { FaultModifier, ProxiedRequest, ProxyTools } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import type { Item } from '../traffic.ts';
import { urlOf } from '../traffic.ts';

const SERVER_SET = ['id', 'creationdate', 'lastupdated', 'published', 'deleted', 'offline', 'externalId', 'isprivate'];

function get(tools: ProxyTools, run: ProxiedRequest, url: string) {
  return tools.upstream({
    method: 'GET',
    url,
    headers: { authorization: run.headers.authorization ?? '' },
    body: Buffer.alloc(0),
  });
}

export function feedUpdateKeepsTitles(): FaultModifier {
  const waiting = new WeakMap<ProxiedRequest, Item[]>();
  const isRun = (req: ProxiedRequest) =>
    req.method === 'POST' && /\/feeds\/[^/]+\/fetchAndConvertOnce$/.test(urlOf(req).pathname);
  const baseOf = (req: ProxiedRequest) => urlOf(req).pathname.replace(/\/feeds\/[^/]+\/fetchAndConvertOnce$/, '');
  return {
    name: 'feedUpdateKeepsTitles',
    async request(req, tools) {
      if (!isRun(req)) return req;
      const list = await get(tools, req, `${baseOf(req)}/events?wfstatus=readyforvalidation&size=2000`);
      const items = ((readJson(list.body) as Item[] | undefined) ?? []).filter((i) => typeof i.externalId === 'string');
      if (items.length === 0) return req;
      const marked = { ...req };
      waiting.set(marked, items);
      return marked;
    },
    async response(res, req, tools) {
      const items = waiting.get(req);
      if (!items) return res;
      for (const before of items) {
        const path = `${baseOf(req)}/events/${encodeURIComponent(String(before.id))}`;
        const now = await get(tools, req, path);
        const current = readJson(now.body) as Item | undefined;
        if (now.status !== 200 || !current || current.wfstatus !== 'readyforvalidation') continue;
        const kept = Object.fromEntries(Object.entries(current).filter(([k]) => !SERVER_SET.includes(k)));
        const answer = await tools.upstream({
          method: 'PUT',
          url: path,
          headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' },
          body: jsonBody({ ...kept, trcItemDetails: before.trcItemDetails }),
        });
        if (answer.status >= 300)
          throw new Error(`feedUpdateKeepsTitles: PUT of ${String(before.id)} answered ${answer.status}`);
      }
      return res;
    },
  };
}
