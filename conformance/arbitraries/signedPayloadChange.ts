// One change to what a webhook signature covers, "<X-Service-Timestamp>.<raw body>" (HOOK-013): a
// body byte changed, inserted or removed, or the timestamp moved to another second or one of its
// digits changed. Positions are free naturals taken modulo the length, so a case shrinks towards
// the first byte and the smallest change, whatever the delivery.
//
//   const changed = applySignedPayloadChange({ timestamp: '1795321353', body }, change);
//   // { timestamp: '1795321353', body: <one byte differs>, what: 'body byte 17 changed: 0x22 ("\"") → 0x23 ("#")' }

import fc from 'fast-check';

export type SignedPayloadChange =
  | { part: 'body'; op: 'replace'; at: number; xor: number }
  | { part: 'body'; op: 'insert'; at: number; byte: number }
  | { part: 'body'; op: 'remove'; at: number }
  | { part: 'timestamp'; op: 'shift'; seconds: number }
  | { part: 'timestamp'; op: 'digit'; at: number; add: number };

export type SignedPart = SignedPayloadChange['part'];

export interface SignedPayloadChangeConstraints {
  /** What may change (default both). */
  parts?: readonly SignedPart[];
  /** Largest move of the timestamp, either way (default one day). */
  maxShiftSeconds?: number;
}

export interface SignedPayload {
  /** X-Service-Timestamp as received: whole epoch seconds, 1 to 12 digits. */
  timestamp: string;
  body: Uint8Array;
}

export interface ChangedPayload extends SignedPayload {
  /** What differs from the payload as received, in words. */
  what: string;
}

const DAY_SECONDS = 86_400;
const position = fc.nat({ max: 1_000_000 });

export function signedPayloadChange(
  constraints: SignedPayloadChangeConstraints = {},
): fc.Arbitrary<SignedPayloadChange> {
  const parts = constraints.parts ?? ['body', 'timestamp'];
  const maxShift = constraints.maxShiftSeconds ?? DAY_SECONDS;
  const cases: fc.Arbitrary<SignedPayloadChange>[] = [];
  if (parts.includes('body')) {
    cases.push(
      fc.record({
        part: fc.constant('body' as const),
        op: fc.constant('replace' as const),
        at: position,
        xor: fc.integer({ min: 1, max: 255 }),
      }),
      fc.record({
        part: fc.constant('body' as const),
        op: fc.constant('insert' as const),
        at: position,
        byte: fc.integer({ min: 0, max: 255 }),
      }),
      fc.record({ part: fc.constant('body' as const), op: fc.constant('remove' as const), at: position }),
    );
  }
  if (parts.includes('timestamp')) {
    cases.push(
      fc.record({
        part: fc.constant('timestamp' as const),
        op: fc.constant('shift' as const),
        seconds: fc.integer({ min: -maxShift, max: maxShift }).filter((s) => s !== 0),
      }),
      fc.record({
        part: fc.constant('timestamp' as const),
        op: fc.constant('digit' as const),
        at: position,
        add: fc.integer({ min: 1, max: 9 }),
      }),
    );
  }
  if (cases.length === 0) throw new RangeError('signedPayloadChange: parts must name body or timestamp');
  return fc.oneof(...cases);
}

const MAX_TIMESTAMP = 999_999_999_999;

function byte(b: number): string {
  const printable = b >= 0x20 && b < 0x7f ? ` (${JSON.stringify(String.fromCharCode(b))})` : '';
  return `0x${b.toString(16).padStart(2, '0')}${printable}`;
}

/** The payload with the change made; always different from the one given. */
export function applySignedPayloadChange(payload: SignedPayload, change: SignedPayloadChange): ChangedPayload {
  const { timestamp, body } = payload;
  if (!/^\d{1,12}$/.test(timestamp))
    throw new RangeError(`the timestamp must be 1 to 12 digits (received: ${JSON.stringify(timestamp)})`);
  switch (change.op) {
    case 'replace':
    case 'remove': {
      // An empty body has no byte to change: one is added instead.
      if (body.length === 0)
        return applySignedPayloadChange(payload, {
          part: 'body',
          op: 'insert',
          at: 0,
          byte: change.op === 'replace' ? change.xor : 0,
        });
      const at = change.at % body.length;
      const was = body[at]!;
      if (change.op === 'remove') {
        return {
          timestamp,
          body: Buffer.concat([body.subarray(0, at), body.subarray(at + 1)]),
          what: `body byte ${at} (${byte(was)}) removed`,
        };
      }
      const changed = Uint8Array.from(body);
      changed[at] = was ^ change.xor;
      return { timestamp, body: changed, what: `body byte ${at} changed: ${byte(was)} → ${byte(changed[at]!)}` };
    }
    case 'insert': {
      const at = change.at % (body.length + 1);
      return {
        timestamp,
        body: Buffer.concat([body.subarray(0, at), Uint8Array.of(change.byte), body.subarray(at)]),
        what: `byte ${byte(change.byte)} inserted at body offset ${at}`,
      };
    }
    case 'shift': {
      const ts = Number(timestamp);
      let moved = ts + change.seconds;
      if (moved < 0 || moved > MAX_TIMESTAMP) moved = ts - change.seconds;
      const next = String(moved);
      return {
        timestamp: next,
        body,
        what: `X-Service-Timestamp ${timestamp} → ${next} (${moved > ts ? '+' : ''}${moved - ts} s)`,
      };
    }
    case 'digit': {
      const at = change.at % timestamp.length;
      const digit = (Number(timestamp[at]) + change.add) % 10;
      const next = `${timestamp.slice(0, at)}${digit}${timestamp.slice(at + 1)}`;
      return { timestamp: next, body, what: `X-Service-Timestamp digit ${at} changed: ${timestamp} → ${next}` };
    }
  }
}
