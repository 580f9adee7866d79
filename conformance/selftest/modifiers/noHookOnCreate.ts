// Fault (webhooks): creating an item sends no webhook; only later changes do (breaks HOOK-002:
// a webhook is sent when an item is created, updated or deleted). The proxy learns the ids of
// items created through it and drops their first UPDATED from the deliveries (signed afresh).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import type { SecretBook } from '../traffic.ts';
import { COLLECTIONS, resign, urlOf } from '../traffic.ts';

const CREATE_RE = new RegExp(`/(${COLLECTIONS.join('|')})$`);

export function noHookOnCreate(secrets: SecretBook): FaultModifier {
  const created = new Set<string>();
  return {
    name: 'noHookOnCreate',
    response(res, req) {
      if (req.method === 'POST' && res.status === 201 && CREATE_RE.test(urlOf(req).pathname)) {
        const id = (readJson(res.body) as { id?: unknown } | undefined)?.id;
        if (typeof id === 'string') created.add(id);
      }
      return res;
    },
    delivery(d) {
      const body = readJson(d.body) as { items?: { id?: string; actionType?: string }[] } | undefined;
      if (!Array.isArray(body?.items)) return d;
      const first = (i: { id?: string; actionType?: string }) => {
        const itemId = i.id?.replace(/_[A-Za-z]+$/, '');
        if (i.actionType !== 'UPDATED' || !itemId || !created.has(itemId)) return false;
        created.delete(itemId);
        return true;
      };
      const items = body.items.filter((i) => !first(i));
      if (items.length === body.items.length) return d;
      if (items.length === 0) return { ...d, swallow: 200 };
      const secret = secrets.current(d.url);
      return secret ? resign(d, secret, { body: jsonBody({ ...body, items }) }) : d;
    },
  };
}
