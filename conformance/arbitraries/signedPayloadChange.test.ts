import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applySignedPayloadChange, signedPayloadChange } from './signedPayloadChange.ts';

const payload = fc.record({
  timestamp: fc.integer({ min: 0, max: 999_999_999_999 }).map(String),
  body: fc.uint8Array({ maxLength: 64 }),
});
const signed = (p: { timestamp: string; body: Uint8Array }) => Buffer.concat([Buffer.from(`${p.timestamp}.`), p.body]);

describe('signedPayloadChange', () => {
  it('when any change is applied to any payload, then "<timestamp>.<body>" differs and the timestamp stays 1 to 12 digits', () => {
    fc.assert(
      fc.property(payload, signedPayloadChange(), (p, change) => {
        const changed = applySignedPayloadChange(p, change);
        expect(signed(changed).equals(signed(p))).toBe(false);
        expect(changed.timestamp).toMatch(/^\d{1,12}$/);
        expect(changed.what).not.toBe('');
      }),
      { numRuns: 2_000, seed: 7 },
    );
  });

  it('when only the timestamp may change, then the body is kept, and the other way round', () => {
    fc.assert(
      fc.property(payload, signedPayloadChange({ parts: ['timestamp'] }), (p, change) => {
        const changed = applySignedPayloadChange(p, change);
        expect(changed.body).toBe(p.body);
        expect(changed.timestamp).not.toBe(p.timestamp);
      }),
      { numRuns: 300, seed: 7 },
    );
    fc.assert(
      fc.property(payload, signedPayloadChange({ parts: ['body'] }), (p, change) => {
        expect(applySignedPayloadChange(p, change).timestamp).toBe(p.timestamp);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('when a byte is changed, inserted or removed, or the timestamp moved, then the description says where and how', () => {
    const p = { timestamp: '1795321353', body: Buffer.from('{"a":1}') };
    expect(applySignedPayloadChange(p, { part: 'body', op: 'replace', at: 8, xor: 1 }).what).toBe(
      'body byte 1 changed: 0x22 ("\\"") → 0x23 ("#")',
    );
    expect(applySignedPayloadChange(p, { part: 'body', op: 'insert', at: 7, byte: 10 }).what).toBe(
      'byte 0x0a inserted at body offset 7',
    );
    expect(applySignedPayloadChange(p, { part: 'body', op: 'remove', at: 0 }).body.toString()).toBe('"a":1}');
    expect(applySignedPayloadChange(p, { part: 'timestamp', op: 'shift', seconds: -2 }).what).toBe(
      'X-Service-Timestamp 1795321353 → 1795321351 (-2 s)',
    );
    expect(applySignedPayloadChange(p, { part: 'timestamp', op: 'digit', at: 0, add: 9 }).timestamp).toBe('0795321353');
    expect(
      applySignedPayloadChange({ ...p, body: new Uint8Array() }, { part: 'body', op: 'remove', at: 3 }).body,
    ).toEqual(Buffer.of(0));
  });
});
