// Fault: the lastupdated filter is exclusive (>) instead of inclusive (>=): items whose
// lastupdated equals the requested value are dropped from list answers (breaks FILTER-001,
// PAGE-004: the keyset boundary item no longer comes back).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';

function sameInstant(a: unknown, b: string): boolean {
  if (typeof a !== 'string') return false;
  if (a === b) return true;
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return !Number.isNaN(x) && x === y;
}

export function exclusiveLastupdated(): FaultModifier {
  return {
    name: 'exclusiveLastupdated',
    response(res, req) {
      const boundary = new URL(req.url, 'http://proxy').searchParams.get('lastupdated');
      if (req.method !== 'GET' || boundary === null || res.status !== 200) return res;
      const items = readJson(res.body);
      if (!Array.isArray(items)) return res;
      const kept = items.filter((item: { lastupdated?: unknown }) => !sameInstant(item?.lastupdated, boundary));
      return kept.length === items.length ? res : { ...res, body: jsonBody(kept) };
    },
  };
}
