// Fault (webhooks): deliveries carry another User-Agent (breaks DEC-HOOK-008:
// "ContentService-Webhooks/1").

import type { FaultModifier } from '../faultProxy.ts';

export function wrongWebhookUserAgent(): FaultModifier {
  return {
    name: 'wrongWebhookUserAgent',
    delivery(d) {
      return d.headers['user-agent'] === 'node' ? d : { ...d, headers: { ...d.headers, 'user-agent': 'node' } };
    },
  };
}
