// Fault (webhooks): the service never batches: each changed item is its own POST (breaks
// HOOK-007: a delivery batches several items in one POST). The proxy passes the first item of a
// delivery and sends each other one afterwards on its own, signed afresh with a delivery id of
// its own.

import { randomUUID } from 'node:crypto';
import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import type { SecretBook } from '../traffic.ts';
import { resign } from '../traffic.ts';

export function oneItemPerDelivery(secrets: SecretBook): FaultModifier {
  const rest = new Map<string, unknown[]>();
  return {
    name: 'oneItemPerDelivery',
    delivery(d) {
      const secret = secrets.current(d.url);
      const body = readJson(d.body) as { items?: unknown[] } | undefined;
      if (!secret || !Array.isArray(body?.items) || body.items.length < 2) return d;
      const [first, ...others] = body.items;
      const single = resign(d, secret, { body: jsonBody({ ...body, items: [first] }) });
      rest.set(single.headers['x-service-delivery'] ?? '', others);
      return single;
    },
    async afterDelivery(d, _status, resend) {
      const others = rest.get(d.headers['x-service-delivery'] ?? '');
      const secret = secrets.current(d.url);
      if (!others || !secret) return;
      rest.delete(d.headers['x-service-delivery'] ?? '');
      for (const item of others) {
        const headers = {
          'x-service-delivery': randomUUID(),
          'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
        };
        await resend(resign(d, secret, { body: jsonBody({ items: [item] }), headers }));
      }
    },
  };
}
