// Fault (webhooks): a delivery the receiver refused with a 4xx is sent again (breaks HOOK-020:
// a 4xx is permanent). The retry carries the same X-Service-Delivery, as a real retry would.

import type { FaultModifier } from '../faultProxy.ts';

export function retryAfter4xx(delayMs = 200): FaultModifier {
  return {
    name: 'retryAfter4xx',
    afterDelivery(delivery, status, resend) {
      if (status < 400 || status >= 500) return;
      setTimeout(() => void resend(delivery).catch(() => {}), delayMs);
    },
  };
}
