// Fault (webhooks): after rotate-secret, deliveries are still signed with the previous secret
// (breaks TOKEN-010: the old secret stops verifying at once, the new one verifies).

import type { FaultModifier } from '../faultProxy.ts';
import type { SecretBook } from '../traffic.ts';
import { resign } from '../traffic.ts';

export function signWithOldSecret(secrets: SecretBook): FaultModifier {
  return {
    name: 'signWithOldSecret',
    delivery(d) {
      const history = secrets.history(d.url);
      return history.length < 2 ? d : resign(d, history.at(-2)!);
    },
  };
}
