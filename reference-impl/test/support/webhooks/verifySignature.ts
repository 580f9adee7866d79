// A webhook receiver's side, for tests of the sender: strict header parsing, the symmetric
// tolerance window, and a constant-time compare of the two 32-byte digests (HOOK-014..016).
// Its own HMAC, not the service's, so a test cannot pass by sharing a mistake with the sender.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS } from '../../../../generated/constants.ts';

const TIMESTAMP = /^\d{1,12}$/;
const SIGNATURE = /^sha256=([0-9a-f]{64})$/;

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

export function verifySignature(input: VerifyInput): VerifyResult {
  if (!TIMESTAMP.test(input.timestamp)) return { ok: false, reason: 'malformed timestamp' };
  const skew = Math.abs(input.nowSeconds - Number(input.timestamp));
  if (skew > (input.toleranceSeconds ?? WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS))
    return { ok: false, reason: `timestamp ${skew} s away from now` };
  const match = SIGNATURE.exec(input.signature);
  if (!match) return { ok: false, reason: 'malformed signature: expected sha256= and 64 lowercase hex digits' };
  const expected = createHmac('sha256', Buffer.from(input.secret, 'utf8'))
    .update(`${input.timestamp}.`)
    .update(typeof input.body === 'string' ? Buffer.from(input.body, 'utf8') : input.body)
    .digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'))
    ? { ok: true }
    : { ok: false, reason: 'signature mismatch' };
}
