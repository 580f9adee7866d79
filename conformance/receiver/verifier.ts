// Webhook signatures are verified with the client library's verifier, so the suite checks the
// service against exactly the rule receivers implement (Events rules 5–7).

import { verifyWebhook } from '../../client/webhooks/verify.ts';

export interface VerifyOutcome {
  ok: boolean;
  reason?: string;
  message?: string;
}

export type VerifyFn = (
  rawBody: Uint8Array,
  headers: Record<string, string>,
  secret: string | readonly string[],
  options: { toleranceSeconds?: number; now?: number },
) => VerifyOutcome;

export const clientVerifier: VerifyFn = (rawBody, headers, secret, options) => {
  const result = verifyWebhook(rawBody, headers, secret, options);
  return result.ok ? { ok: true } : { ok: false, reason: result.reason, message: result.message };
};
