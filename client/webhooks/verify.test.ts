import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { existsSync, readFileSync } from 'node:fs';
import { signWebhook, verifyWebhook, type HeaderSource } from './verify.ts';

interface Vector {
  name: string;
  secret: string;
  timestamp: string;
  body: string;
  signature: string;
}

// A copy of ../shared/test-vectors/webhook-signatures.json, so a clean clone can run the test.
const fixture = new URL('./fixtures/webhook-signatures.json', import.meta.url);
const vectors = JSON.parse(readFileSync(fixture, 'utf8')) as { valid: Vector[]; invalid: Vector[] };
const SHARED = '/work/shared/test-vectors/webhook-signatures.json';

const DELIVERY = '6f1c4bde-0e55-4c5e-9b1f-3a9a1f0d2c11';
const headersFor = (timestamp: string, signature: string, delivery = DELIVERY): Record<string, string> => ({
  'x-service-timestamp': timestamp,
  'x-service-signature': signature,
  'x-service-delivery': delivery,
});
const atSeconds = (s: number) => s * 1000;

describe('verifyWebhook: shared vectors', () => {
  it('when the shared vector file exists, then the local copy is identical', () => {
    if (!existsSync(SHARED)) return;
    expect(JSON.parse(readFileSync(SHARED, 'utf8'))).toEqual(vectors);
  });

  it.each(vectors.valid.map((v) => [v.name, v] as const))(
    'valid vector "%s" verifies [HOOK-015] [HOOK-016]',
    (_name, v) => {
      const res = verifyWebhook(v.body, headersFor(v.timestamp, v.signature), v.secret, {
        now: atSeconds(Number(v.timestamp)),
      });
      expect(res).toEqual({ ok: true, deliveryId: DELIVERY, timestamp: Number(v.timestamp) });
      expect(signWebhook(v.secret, v.timestamp, v.body)).toBe(v.signature);
      // Bytes and string give the same answer.
      expect(
        verifyWebhook(Buffer.from(v.body, 'utf8'), headersFor(v.timestamp, v.signature), v.secret, {
          now: atSeconds(Number(v.timestamp)),
        }).ok,
      ).toBe(true);
    },
  );

  it.each(vectors.invalid.map((v) => [v.name, v] as const))('invalid vector "%s" is rejected', (_name, v) => {
    const res = verifyWebhook(v.body, headersFor(v.timestamp, v.signature), v.secret, {
      now: atSeconds(Number(v.timestamp)),
    });
    expect(res.ok).toBe(false);
  });
});

describe('verifyWebhook: reasons', () => {
  const secret = "It's a Secret to Everybody";
  const ts = '1700000000';
  const body = 'Hello, World!';
  const sig = signWebhook(secret, ts, body);
  const now = atSeconds(1700000000);

  it.each([
    ['x-service-timestamp', 'missing_header'],
    ['x-service-signature', 'missing_header'],
    ['x-service-delivery', 'missing_header'],
  ])('when %s is absent, then the reason is %s', (header, reason) => {
    const h = headersFor(ts, sig);
    delete h[header];
    const res = verifyWebhook(body, h, secret, { now });
    expect(res).toMatchObject({ ok: false, reason });
    if (!res.ok) expect(res.message.toLowerCase()).toBe(`missing header ${header}`);
  });

  it.each(['1700000000.5', ' 1700000000', '-1', '', '1e9', '1234567890123', '0x10'])(
    'when the timestamp is %j, then it is malformed',
    (bad) => {
      const res = verifyWebhook(body, headersFor(bad, sig), secret, { now });
      expect(res).toMatchObject({ ok: false, reason: bad === '' ? 'missing_header' : 'malformed_timestamp' });
    },
  );

  it.each([
    ['uppercase hex', sig.toUpperCase().replace('SHA256=', 'sha256=')],
    ['no prefix', sig.slice(7)],
    ['63 hex digits', sig.slice(0, -1)],
    ['65 hex digits', `${sig}0`],
    ['other algorithm', sig.replace('sha256=', 'sha512=')],
    ['two signatures', `${sig}, ${sig}`],
  ])('when the signature has %s, then it is malformed', (_name, bad) => {
    expect(verifyWebhook(body, headersFor(ts, bad), secret, { now })).toMatchObject({
      ok: false,
      reason: 'malformed_signature',
    });
  });

  it('when the delivery id is overlong or has odd characters, then it is rejected', () => {
    expect(verifyWebhook(body, headersFor(ts, sig, 'x'.repeat(129)), secret, { now })).toMatchObject({
      reason: 'malformed_delivery_id',
    });
    expect(verifyWebhook(body, headersFor(ts, sig, 'a b'), secret, { now })).toMatchObject({
      reason: 'malformed_delivery_id',
    });
  });

  it('when the timestamp is 300 s off either way, then it passes; 301 s fails with a reason [HOOK-014]', () => {
    for (const skew of [-300, -1, 0, 1, 300]) {
      expect(verifyWebhook(body, headersFor(ts, sig), secret, { now: atSeconds(1700000000 + skew) }).ok).toBe(true);
    }
    expect(verifyWebhook(body, headersFor(ts, sig), secret, { now: atSeconds(1700000000 + 301) })).toMatchObject({
      ok: false,
      reason: 'timestamp_too_old',
    });
    expect(verifyWebhook(body, headersFor(ts, sig), secret, { now: atSeconds(1700000000 - 301) })).toMatchObject({
      ok: false,
      reason: 'timestamp_too_new',
    });
    // Sub-second receiver time counts in whole seconds.
    expect(verifyWebhook(body, headersFor(ts, sig), secret, { now: atSeconds(1700000300) + 999 }).ok).toBe(true);
  });

  it('when now is a Date or a function, then it is used; toleranceSeconds changes the window', () => {
    expect(verifyWebhook(body, headersFor(ts, sig), secret, { now: new Date(atSeconds(1700000010)) }).ok).toBe(true);
    expect(
      verifyWebhook(body, headersFor(ts, sig), secret, { now: () => atSeconds(1700000010), toleranceSeconds: 5 }),
    ).toMatchObject({ reason: 'timestamp_too_old' });
  });

  it('when headers come as Fetch Headers, a Node array value or mixed case, then they are found', () => {
    const fetchHeaders = new Headers(headersFor(ts, sig));
    expect(verifyWebhook(body, fetchHeaders, secret, { now }).ok).toBe(true);
    const mixed: HeaderSource = {
      'X-SERVICE-TIMESTAMP': ts,
      'X-Service-Signature': [sig],
      'x-service-DELIVERY': DELIVERY,
    };
    expect(verifyWebhook(body, mixed, secret, { now }).ok).toBe(true);
  });

  it('when several secrets are given (rotation window), then any of them verifies', () => {
    expect(verifyWebhook(body, headersFor(ts, sig), ['new-secret', secret], { now }).ok).toBe(true);
    expect(verifyWebhook(body, headersFor(ts, sig), ['new-secret', 'older'], { now })).toMatchObject({
      reason: 'signature_mismatch',
    });
  });

  it('when the secret is empty, then it is a configuration error, not a verdict', () => {
    expect(() => verifyWebhook(body, headersFor(ts, sig), '', { now })).toThrow(TypeError);
    expect(() => verifyWebhook(body, headersFor(ts, sig), [], { now })).toThrow(TypeError);
  });
});

describe('verifyWebhook: properties', () => {
  const secretArb = fc.string({ minLength: 1, maxLength: 64, unit: 'binary' });
  const bodyArb = fc.uint8Array({ maxLength: 512 });
  const tsArb = fc.integer({ min: 1, max: 4_000_000_000 });

  it('property: any body and secret round-trip [HOOK-015]', () => {
    fc.assert(
      fc.property(secretArb, bodyArb, tsArb, fc.integer({ min: -300, max: 300 }), (secret, body, ts, skew) => {
        const res = verifyWebhook(body, headersFor(String(ts), signWebhook(secret, ts, body)), secret, {
          now: atSeconds(ts + skew),
        });
        expect(res).toEqual({ ok: true, deliveryId: DELIVERY, timestamp: ts });
      }),
      { numRuns: 500 },
    );
  });

  it('property: any changed body byte fails', () => {
    fc.assert(
      fc.property(
        secretArb,
        bodyArb.filter((b) => b.length > 0),
        tsArb,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (secret, body, ts, at, delta) => {
          const sig = signWebhook(secret, ts, body);
          const changed = Uint8Array.from(body);
          const i = at % changed.length;
          changed[i] = (changed[i]! + delta) % 256;
          expect(verifyWebhook(changed, headersFor(String(ts), sig), secret, { now: atSeconds(ts) })).toMatchObject({
            ok: false,
            reason: 'signature_mismatch',
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('property: an appended or removed byte fails', () => {
    fc.assert(
      fc.property(secretArb, bodyArb, tsArb, fc.integer({ min: 0, max: 255 }), (secret, body, ts, extra) => {
        const sig = signWebhook(secret, ts, body);
        const longer = Uint8Array.from([...body, extra]);
        expect(verifyWebhook(longer, headersFor(String(ts), sig), secret, { now: atSeconds(ts) }).ok).toBe(false);
        if (body.length > 0)
          expect(verifyWebhook(body.subarray(1), headersFor(String(ts), sig), secret, { now: atSeconds(ts) }).ok).toBe(
            false,
          );
      }),
    );
  });

  it('property: a wrong secret fails', () => {
    fc.assert(
      fc.property(secretArb, secretArb, bodyArb, tsArb, (secret, other, body, ts) => {
        fc.pre(secret !== other);
        const sig = signWebhook(secret, ts, body);
        expect(verifyWebhook(body, headersFor(String(ts), sig), other, { now: atSeconds(ts) })).toMatchObject({
          ok: false,
          reason: 'signature_mismatch',
        });
      }),
      { numRuns: 300 },
    );
  });

  it('property: a timestamp more than 300 s away fails, within 300 s passes [HOOK-014]', () => {
    fc.assert(
      fc.property(
        secretArb,
        bodyArb,
        tsArb,
        fc.integer({ min: 301, max: 10_000_000 }),
        fc.boolean(),
        (secret, body, ts, off, past) => {
          const sig = signWebhook(secret, ts, body);
          const now = atSeconds(past ? ts + off : ts - off);
          expect(verifyWebhook(body, headersFor(String(ts), sig), secret, { now })).toMatchObject({
            ok: false,
            reason: past ? 'timestamp_too_old' : 'timestamp_too_new',
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: a signature made for another timestamp fails even inside the window', () => {
    fc.assert(
      fc.property(secretArb, bodyArb, tsArb, fc.integer({ min: 1, max: 300 }), (secret, body, ts, d) => {
        const sig = signWebhook(secret, ts, body);
        expect(verifyWebhook(body, headersFor(String(ts + d), sig), secret, { now: atSeconds(ts) })).toMatchObject({
          reason: 'signature_mismatch',
        });
      }),
    );
  });
});
