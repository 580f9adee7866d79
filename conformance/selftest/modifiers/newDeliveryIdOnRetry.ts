// Fault (webhooks): a retry carries a new X-Service-Delivery instead of the first attempt's
// (breaks HOOK-012: receivers deduplicate on it).

import { randomUUID } from 'node:crypto';
import type { FaultModifier } from '../faultProxy.ts';

export function newDeliveryIdOnRetry(): FaultModifier {
  const seen = new Set<string>();
  return {
    name: 'newDeliveryIdOnRetry',
    delivery(d) {
      const id = d.headers['x-service-delivery'];
      if (!id) return d;
      if (!seen.has(id)) {
        seen.add(id);
        return d;
      }
      return { ...d, headers: { ...d.headers, 'x-service-delivery': randomUUID() } };
    },
  };
}
