// Fault (webhooks): the signature covers only the body, not "<timestamp>.<body>" (breaks
// HOOK-013). The proxy needs the token's signing secret to re-sign (by the delivery's URL).

import { createHmac } from 'node:crypto';
import type { FaultModifier } from '../faultProxy.ts';

export function signWithoutTimestamp(secret: (deliveryUrl: string) => string | undefined): FaultModifier {
  return {
    name: 'signWithoutTimestamp',
    delivery(d) {
      const key = secret(d.url);
      if (!key) return d;
      const signature = `sha256=${createHmac('sha256', Buffer.from(key, 'utf8')).update(d.body).digest('hex')}`;
      return { ...d, headers: { ...d.headers, 'x-service-signature': signature } };
    },
  };
}
