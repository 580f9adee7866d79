// Fault: items are identified by sequential numbers instead of UUIDs (breaks ITEM-002: id is a
// UUID string). The proxy numbers the target's ids as it sees them, answers the numbers (in
// bodies and Location) and maps them back in request paths, so the items stay reachable.

import type { FaultModifier } from '../faultProxy.ts';
import { COLLECTIONS, mapItems, urlOf } from '../traffic.ts';

const DETAIL_RE = new RegExp(`(/(?:${COLLECTIONS.join('|')})/)([^/]+)`);

export function idsAsNumbers(): FaultModifier {
  const numberOf = new Map<string, string>();
  const uuidOf = new Map<string, string>();
  const number = (uuid: string) => {
    let n = numberOf.get(uuid);
    if (n === undefined) {
      n = String(numberOf.size + 1);
      numberOf.set(uuid, n);
      uuidOf.set(n, uuid);
    }
    return n;
  };
  return {
    name: 'idsAsNumbers',
    request(req) {
      const url = urlOf(req);
      const m = DETAIL_RE.exec(url.pathname);
      const uuid = m ? uuidOf.get(decodeURIComponent(m[2]!)) : undefined;
      if (!m || uuid === undefined) return req;
      return { ...req, url: `${url.pathname.replace(DETAIL_RE, `$1${uuid}`)}${url.search}` };
    },
    response(res) {
      const location = res.headers.location;
      const m = location ? DETAIL_RE.exec(location) : null;
      const relocated = m
        ? { ...res, headers: { ...res.headers, location: location!.replace(DETAIL_RE, `$1${number(m[2]!)}`) } }
        : res;
      return mapItems(relocated, (item) =>
        typeof item.id === 'string' && !/^\d+$/.test(item.id) ? { ...item, id: number(item.id) } : item,
      );
    },
  };
}
