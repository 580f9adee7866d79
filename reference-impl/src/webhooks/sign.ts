// @implements HOOK-010, HOOK-011, HOOK-013
// Webhook signatures (HOOK-010, HOOK-011, HOOK-013, DEC-HOOK-001):
// X-Service-Signature = "sha256=" + lowercase hex HMAC-SHA256 over "<timestamp>.<raw body bytes>",
// keyed with the UTF-8 bytes of the signing secret string exactly as it was handed out.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS } from '../../../generated/constants.ts';

const SIGNATURE_PREFIX = 'sha256=';
/** HOOK-014: receivers reject timestamps further than this from their own clock. */
const TIMESTAMP_TOLERANCE_SECONDS = WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS;

const TIMESTAMP = /^\d{1,12}$/;
const SIGNATURE = /^sha256=([0-9a-f]{64})$/;

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

export type VerifyResult = { ok: true } | { ok: false; reason: string };

export interface VerifyInput {
  secret: string;
  /** X-Service-Timestamp as received. */
  timestamp: string;
  /** X-Service-Signature as received. */
  signature: string;
  /** The raw body bytes, before any JSON parsing (HOOK-015). */
  body: Uint8Array | string;
  /** The receiver's clock in epoch seconds. */
  nowSeconds: number;
  toleranceSeconds?: number;
}

/**
 * The receiver's side, for tests of the sender: strict header parsing, the symmetric ±300 s
 * window, and a constant-time compare of the two 32-byte digests (HOOK-014..016).
 */
export function verifySignature(input: VerifyInput): VerifyResult {
  if (!TIMESTAMP.test(input.timestamp)) return { ok: false, reason: 'malformed timestamp' };
  const skew = Math.abs(input.nowSeconds - Number(input.timestamp));
  if (skew > (input.toleranceSeconds ?? TIMESTAMP_TOLERANCE_SECONDS))
    return { ok: false, reason: `timestamp ${skew} s away from now` };
  const match = SIGNATURE.exec(input.signature);
  if (!match) return { ok: false, reason: 'malformed signature: expected sha256= and 64 lowercase hex digits' };
  const expected = digest(input.secret, input.timestamp, input.body);
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'))
    ? { ok: true }
    : { ok: false, reason: 'signature mismatch' };
}
