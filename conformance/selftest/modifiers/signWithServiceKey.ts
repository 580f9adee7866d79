// Fault (webhooks): every delivery is signed with one service-wide key instead of the token's
// signingSecret, so no receiver can authenticate it (breaks AUTH-009: webhook deliveries are
// authenticated by HMAC signature; and HOOK-013, the signature's key).

import type { FaultModifier } from '../faultProxy.ts';
import { signature } from '../traffic.ts';

const SERVICE_KEY = 'content-service-webhooks';

export function signWithServiceKey(): FaultModifier {
  return {
    name: 'signWithServiceKey',
    delivery(d) {
      const timestamp = d.headers['x-service-timestamp'];
      if (!timestamp) return d;
      return { ...d, headers: { ...d.headers, 'x-service-signature': signature(SERVICE_KEY, timestamp, d.body) } };
    },
  };
}
