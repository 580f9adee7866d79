// Fault (webhooks): deliveries carry no X-Service-Timestamp (breaks HOOK-010: every delivery
// carries X-Service-Timestamp, Unix epoch seconds at signing).

import type { FaultModifier } from '../faultProxy.ts';

export function omitDeliveryTimestamp(): FaultModifier {
  return {
    name: 'omitDeliveryTimestamp',
    delivery(d) {
      if (d.headers['x-service-timestamp'] === undefined) return d;
      const { 'x-service-timestamp': _omitted, ...headers } = d.headers;
      return { ...d, headers };
    },
  };
}
