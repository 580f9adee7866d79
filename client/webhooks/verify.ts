// @implements HOOK-014, HOOK-015, HOOK-016, HOOK-023
// Webhook signature verification (Events rules 5–7; HOOK-014, HOOK-015, HOOK-016, HOOK-023).
//
// X-Service-Signature = "sha256=" + lowercase hex HMAC-SHA256 over "<timestamp>.<raw body bytes>",
// keyed with the UTF-8 bytes of the signing secret exactly as the service returned it
// (DEC-HOOK-001: no prefix stripping, no base64 decoding).

import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_HEADERS, WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS } from '../../generated/constants.ts';

export const TIMESTAMP_HEADER = WEBHOOK_HEADERS.timestamp;
export const SIGNATURE_HEADER = WEBHOOK_HEADERS.signature;
export const DELIVERY_HEADER = WEBHOOK_HEADERS.delivery;
export const DEFAULT_TOLERANCE_SECONDS = WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS;

const TIMESTAMP_RE = /^\d{1,12}$/;
const SIGNATURE_RE = /^sha256=([0-9a-f]{64})$/;
// The delivery id is a UUID; accept any short token so a vendor's id format still dedupes,
// but bound it because it becomes a key in the dedupe memory.
const DELIVERY_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Node's `req.headers`, a Fetch `Headers`, or any record (looked up case-insensitively). */
export type HeaderSource =
  { get(name: string): string | null | undefined } | Readonly<Record<string, string | readonly string[] | undefined>>;

export type VerifyFailureReason =
  | 'missing_header'
  | 'malformed_timestamp'
  | 'malformed_signature'
  | 'malformed_delivery_id'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'signature_mismatch';

export type VerifyResult =
  { ok: true; deliveryId: string; timestamp: number } | { ok: false; reason: VerifyFailureReason; message: string };

export interface VerifyOptions {
  /** Largest allowed difference, either way, between the header and `now`. Default 300. */
  toleranceSeconds?: number;
  /** The receiver's time: epoch milliseconds, a Date, or a function giving epoch milliseconds. */
  now?: number | Date | (() => number);
}

function isGetter(h: HeaderSource): h is { get(name: string): string | null | undefined } {
  return typeof (h as { get?: unknown }).get === 'function';
}

/** One header value, or undefined when absent. Repeated headers yield their joined form, which fails the strict formats. */
export function getHeader(headers: HeaderSource, name: string): string | undefined {
  if (isGetter(headers)) return headers.get(name) ?? undefined;
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== lower || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(', ');
  }
  return undefined;
}

function toBytes(body: Uint8Array | string): Uint8Array {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

function digest(secret: string, timestamp: string, body: Uint8Array): Buffer {
  if (typeof secret !== 'string' || secret.length === 0) {
    // A configuration error, not a verification outcome.
    throw new TypeError('webhook signing secret must be a non-empty string');
  }
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.`, 'utf8').update(body).digest();
}

/** The X-Service-Signature value for a delivery (for tests, tools and senders). */
export function signWebhook(secret: string, timestamp: number | string, body: Uint8Array | string): string {
  const ts = String(timestamp);
  if (!TIMESTAMP_RE.test(ts)) throw new RangeError(`timestamp must be whole epoch seconds (received: ${ts})`);
  return `sha256=${digest(secret, ts, toBytes(body)).toString('hex')}`;
}

function nowMs(now: VerifyOptions['now']): number {
  if (now === undefined) return Date.now();
  if (typeof now === 'function') return now();
  return now instanceof Date ? now.getTime() : now;
}

function fail(reason: VerifyFailureReason, message: string): VerifyResult {
  return { ok: false, reason, message };
}

/**
 * Verifies one delivery. `rawBody` must be the bytes as received, before any JSON parsing.
 * `secret` may be a list during a rotation window; the delivery passes if any secret matches.
 */
export function verifyWebhook(
  rawBody: Uint8Array | string,
  headers: HeaderSource,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): VerifyResult {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new TypeError('at least one webhook signing secret is required');

  const timestamp = getHeader(headers, TIMESTAMP_HEADER);
  const signature = getHeader(headers, SIGNATURE_HEADER);
  const deliveryId = getHeader(headers, DELIVERY_HEADER);
  for (const [name, value] of [
    [TIMESTAMP_HEADER, timestamp],
    [SIGNATURE_HEADER, signature],
    [DELIVERY_HEADER, deliveryId],
  ] as const) {
    if (value === undefined || value === '') return fail('missing_header', `missing header ${name}`);
  }
  if (!TIMESTAMP_RE.test(timestamp!)) {
    return fail(
      'malformed_timestamp',
      `${TIMESTAMP_HEADER} must be 1 to 12 digits of epoch seconds (received: ${JSON.stringify(timestamp!.slice(0, 40))})`,
    );
  }
  if (!DELIVERY_RE.test(deliveryId!)) {
    return fail('malformed_delivery_id', `${DELIVERY_HEADER} must be a UUID-like token of at most 128 characters`);
  }
  const ts = Number(timestamp);
  const nowSeconds = Math.floor(nowMs(options.now) / 1000);
  if (nowSeconds - ts > tolerance) {
    return fail(
      'timestamp_too_old',
      `${TIMESTAMP_HEADER} is ${nowSeconds - ts} s in the past; at most ${tolerance} s is accepted`,
    );
  }
  if (ts - nowSeconds > tolerance) {
    return fail(
      'timestamp_too_new',
      `${TIMESTAMP_HEADER} is ${ts - nowSeconds} s in the future; at most ${tolerance} s is accepted`,
    );
  }
  const match = SIGNATURE_RE.exec(signature!);
  if (!match) {
    return fail('malformed_signature', `${SIGNATURE_HEADER} must be "sha256=" followed by 64 lowercase hex digits`);
  }
  // Both sides are 32-byte digests, so timingSafeEqual never sees attacker-chosen lengths.
  const given = Buffer.from(match[1]!, 'hex');
  const body = toBytes(rawBody);
  let matched = false;
  for (const s of secrets) {
    if (timingSafeEqual(digest(s, timestamp!, body), given)) matched = true;
  }
  if (!matched)
    return fail(
      'signature_mismatch',
      `${SIGNATURE_HEADER} does not match the body and timestamp for the configured secret`,
    );
  return { ok: true, deliveryId: deliveryId!, timestamp: ts };
}
