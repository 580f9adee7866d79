// Fault: published, deleted and offline written on an update are stored as sent instead of being
// recomputed from wfstatus (breaks WF-013: booleans written without a matching wfstatus are
// overwritten on the next save). Creation still recomputes them.

import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import { COLLECTIONS, mapItems, urlOf } from '../traffic.ts';

const DETAIL_RE = new RegExp(`/(?:${COLLECTIONS.join('|')})/([^/]+)$`);
const BOOLEANS = ['published', 'deleted', 'offline'] as const;

export function writtenBooleansKept(): FaultModifier {
  const written = new Map<string, Record<string, unknown>>();
  return {
    name: 'writtenBooleansKept',
    request(req) {
      const id = DETAIL_RE.exec(urlOf(req).pathname)?.[1];
      if (req.method !== 'PUT' || id === undefined) return req;
      const body = readJson(req.body) as Record<string, unknown> | undefined;
      const booleans = Object.fromEntries(
        BOOLEANS.filter((b) => typeof body?.[b] === 'boolean').map((b) => [b, body![b]]),
      );
      if (Object.keys(booleans).length > 0) written.set(decodeURIComponent(id), booleans);
      else written.delete(decodeURIComponent(id));
      return req;
    },
    response(res) {
      return mapItems(res, (item) => {
        const booleans = written.get(String(item.id));
        return booleans && BOOLEANS.some((b) => b in booleans && item[b] !== booleans[b])
          ? { ...item, ...booleans }
          : item;
      });
    },
  };
}
