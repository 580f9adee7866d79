// Fault (webhooks): the signature's hex digest is in upper case (breaks HOOK-011: the header is
// "sha256=" followed by the lower-case hex HMAC).

import type { FaultModifier } from '../faultProxy.ts';

export function uppercaseHexSignature(): FaultModifier {
  return {
    name: 'uppercaseHexSignature',
    delivery(d) {
      const sig = d.headers['x-service-signature'];
      if (!sig?.startsWith('sha256=')) return d;
      return { ...d, headers: { ...d.headers, 'x-service-signature': `sha256=${sig.slice(7).toUpperCase()}` } };
    },
  };
}
