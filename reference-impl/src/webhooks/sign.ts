// @implements HOOK-010, HOOK-011, HOOK-013
// Webhook signatures (HOOK-010, HOOK-011, HOOK-013, DEC-HOOK-001):
// X-Service-Signature = "sha256=" + lowercase hex HMAC-SHA256 over "<timestamp>.<raw body bytes>",
// keyed with the UTF-8 bytes of the signing secret string exactly as it was handed out.

import { createHmac, randomBytes } from 'node:crypto';

const SIGNATURE_PREFIX = 'sha256=';

const TIMESTAMP = /^\d{1,12}$/;

/** 32 random bytes as 43 base64url characters, no prefix (DEC-HOOK-001). */
export function generateSigningSecret(): string {
  return randomBytes(32).toString('base64url');
}

function digest(secret: string, timestamp: string, body: Uint8Array | string): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestamp}.`)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest();
}

function timestampText(timestamp: number | string): string {
  const text = String(timestamp);
  if (!TIMESTAMP.test(text)) throw new RangeError(`timestamp must be whole epoch seconds (received: ${text})`);
  return text;
}

// @implements AUTH-009
/** The X-Service-Signature value for one attempt. `body` is the exact bytes sent. */
export function signPayload(secret: string, timestamp: number | string, body: Uint8Array | string): string {
  return SIGNATURE_PREFIX + digest(secret, timestampText(timestamp), body).toString('hex');
}
