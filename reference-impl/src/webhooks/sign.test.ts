import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { verifySignature } from '../../test/support/webhooks/verifySignature.ts';
import { generateSigningSecret, signPayload } from './sign.ts';
// A verbatim copy of shared/test-vectors/webhook-signatures.json (two independent HMAC
// implementations computed each vector), kept in the repo so a clean clone can run it.
import vectors from '../../test/support/webhooks/webhook-signatures.json' with { type: 'json' };

interface Vector {
  name: string;
  secret: string;
  timestamp: string;
  body: string;
  signature: string;
}

describe('signPayload (DEC-HOOK-001)', () => {
  it.each(vectors.valid as Vector[])(
    'when signing the "$name" vector, then the signature matches [HOOK-011] [HOOK-013]',
    (v) => {
      expect(signPayload(v.secret, v.timestamp, Buffer.from(v.body, 'utf8'))).toBe(v.signature);
      expect(signPayload(v.secret, Number(v.timestamp), v.body)).toBe(v.signature);
      expect(verifySignature({ ...v, nowSeconds: Number(v.timestamp) })).toEqual({ ok: true });
    },
  );

  it.each(vectors.invalid as Vector[])(
    'when given the invalid "$name" vector, then the signer never produces it and the verifier rejects it',
    (v) => {
      expect(signPayload(v.secret, v.timestamp, Buffer.from(v.body, 'utf8'))).not.toBe(v.signature);
      expect(verifySignature({ ...v, nowSeconds: Number(v.timestamp) }).ok).toBe(false);
    },
  );

  it('when signing, then the format is sha256= and 64 lowercase hex digits [HOOK-011]', () => {
    expect(signPayload('s', 1, '')).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('when the timestamp is not whole epoch seconds, then signing refuses', () => {
    expect(() => signPayload('s', 1.5, 'x')).toThrow(RangeError);
    expect(() => signPayload('s', -1, 'x')).toThrow(RangeError);
    expect(() => signPayload('s', ' 1700000000', 'x')).toThrow(RangeError);
  });

  it('for any secret, timestamp and body, then signing is deterministic and verifies', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1 }),
        fc.integer({ min: 0, max: 9_999_999_999 }),
        fc.uint8Array(),
        (secret, ts, body) => {
          const sig = signPayload(secret, ts, body);
          return (
            sig === signPayload(secret, ts, Uint8Array.from(body)) &&
            verifySignature({ secret, timestamp: String(ts), signature: sig, body, nowSeconds: ts }).ok
          );
        },
      ),
    );
  });

  it('for any body, when any one byte changes, then the signature changes', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.uint8Array({ minLength: 1 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (secret, body, at, delta) => {
          const changed = Uint8Array.from(body);
          const i = at % body.length;
          changed[i] = (changed[i]! + delta) % 256;
          return signPayload(secret, 1_700_000_000, body) !== signPayload(secret, 1_700_000_000, changed);
        },
      ),
    );
  });

  it('for any secret, when one character of the secret or the timestamp changes, then the signature changes', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.uint8Array(),
        fc.integer({ min: 1, max: 9_999_999_998 }),
        (secret, body, ts) => {
          const base = signPayload(secret, ts, body);
          return base !== signPayload(secret + 'x', ts, body) && base !== signPayload(secret, ts + 1, body);
        },
      ),
    );
  });
});

describe('generateSigningSecret (DEC-HOOK-001)', () => {
  it('when generating, then the secret is 43 base64url characters of 32 random bytes, different each time', () => {
    const secrets = Array.from({ length: 50 }, generateSigningSecret);
    for (const s of secrets) {
      expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(s, 'base64url')).toHaveLength(32);
    }
    expect(new Set(secrets).size).toBe(50);
  });
});

describe('verifySignature', () => {
  const secret = "It's a Secret to Everybody";
  const body = 'Hello, World!';
  const ts = 1_700_000_000;
  const signature = signPayload(secret, ts, body);

  it.each([-300, 0, 300])('when the receiver clock is %i s off, then it verifies [HOOK-014]', (offset) => {
    expect(verifySignature({ secret, timestamp: String(ts), signature, body, nowSeconds: ts + offset }).ok).toBe(true);
  });

  it.each([-301, 301])('when the receiver clock is %i s off, then it is rejected [HOOK-014]', (offset) => {
    expect(verifySignature({ secret, timestamp: String(ts), signature, body, nowSeconds: ts + offset }).ok).toBe(false);
  });

  it.each(['1700000000.5', ' 1700000000', '-1', ''])(
    'when the timestamp header is %j, then it is rejected',
    (timestamp) => {
      expect(verifySignature({ secret, timestamp, signature, body, nowSeconds: ts }).ok).toBe(false);
    },
  );

  it.each([signature.slice(0, -1), signature + '0', signature.toUpperCase(), signature.slice(7)])(
    'when the signature header is %j, then it is rejected without throwing [HOOK-016]',
    (bad) => {
      expect(verifySignature({ secret, timestamp: String(ts), signature: bad, body, nowSeconds: ts }).ok).toBe(false);
    },
  );
});
