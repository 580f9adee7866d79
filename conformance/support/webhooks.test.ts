import { createHmac, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../../client/webhooks/verify.ts';
import type { HttpResponse } from '../http/httpClient.ts';
import { CheckFailure } from '../model/failure.ts';
import type { Delivery } from '../receiver/receiver.ts';
import type { VerifyFn } from '../receiver/verifier.ts';
import type { CheckContext } from '../engine/runtime/context.ts';
import { loadSpec } from '../../spec/index.ts';
import { createResponseValidator } from '../spec/responseValidator.ts';
import { dropOwnCallbackProblems } from './tokens.ts';
import {
  assertRetriesOfOneDelivery,
  assertSignatureBindsBodyAndTimestamp,
  assertSignedDelivery,
  callbackId,
  callbackItems,
  eventType,
} from './webhooks.ts';

const SECRET = 'wnNnRoWEcuGZhN2K1F0VH6H2lhVvsPo0sQsSD-LzuoU';
const NOW = Date.UTC(2026, 10, 22, 5, 0, 0);
const ITEM = '3f1b6d2e-8c4a-4e7b-9f10-2a5c7d9e1b34';
const BODY = JSON.stringify({
  items: [
    {
      id: `${ITEM}_EventUpdated`,
      trcid: 'trc-1',
      resourceUri: `https://content.example.com/api/events/${ITEM}`,
      resourceType: 'EVENT',
      actionType: 'UPDATED',
    },
  ],
});

let ctx: CheckContext;
beforeAll(async () => {
  const spec = loadSpec(fileURLToPath(new URL('../../generated/openapi.json', import.meta.url)));
  ctx = {
    spec: { document: spec.document, sha256: spec.sha256, validator: createResponseValidator(spec.document) },
    verified: () => {},
  } as unknown as CheckContext;
});

let seq = 0;
function delivery(
  options: {
    body?: string;
    at?: number;
    ts?: number;
    id?: string;
    sign?: (ts: string, body: string) => string;
    headers?: Record<string, string>;
  } = {},
): Delivery {
  const body = options.body ?? BODY;
  const at = options.at ?? NOW;
  const ts = String(options.ts ?? Math.floor(at / 1000));
  const signature = options.sign ? options.sign(ts, body) : signWebhook(SECRET, ts, body);
  return {
    seq: ++seq,
    endpoint: 'e',
    method: 'POST',
    path: '/hooks/e',
    headers: {
      'content-type': 'application/json',
      'x-service-timestamp': ts,
      'x-service-signature': signature,
      'x-service-delivery': options.id ?? randomUUID(),
      ...options.headers,
    },
    rawBody: Buffer.from(body),
    receivedAt: at,
    response: { status: 200 },
    json: () => JSON.parse(body) as unknown,
  };
}

function failure(run: () => void): CheckFailure {
  try {
    run();
  } catch (error) {
    if (error instanceof CheckFailure) return error;
    throw error;
  }
  throw new Error('expected a CheckFailure');
}

describe('event types and callback ids', () => {
  it('when an event is updated or a venue deleted, then the names are EventUpdated and VenueDeleted', () => {
    expect(eventType('/events', 'UPDATED')).toBe('EventUpdated');
    expect(callbackId('x', '/venues', 'DELETED')).toBe('x_VenueDeleted');
    expect(callbackItems(delivery()).map((i) => i.id)).toEqual([`${ITEM}_EventUpdated`]);
  });
});

describe('assertSignedDelivery', () => {
  it('when the delivery is signed over "<timestamp>.<raw body>" with the secret, then it passes', () => {
    expect(() => assertSignedDelivery(ctx, delivery(), SECRET)).not.toThrow();
  });

  it('when the signature covers the body only, then HOOK-013 fails and the diagnosis says so', () => {
    const f = failure(() =>
      assertSignedDelivery(
        ctx,
        delivery({ sign: (_ts, body) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` }),
        SECRET,
      ),
    );
    expect(f.requirements).toEqual(['HOOK-013', 'AUTH-009']);
    expect(f.message).toContain('the body only');
  });

  it('when the key is the base64-decoded secret, then the diagnosis names it', () => {
    const f = failure(() =>
      assertSignedDelivery(
        ctx,
        delivery({
          sign: (ts, body) =>
            `sha256=${createHmac('sha256', Buffer.from(SECRET, 'base64url')).update(`${ts}.${body}`).digest('hex')}`,
        }),
        SECRET,
      ),
    );
    expect(f.message).toContain('base64-decoded');
  });

  it('when the timestamp is 301 s old, then HOOK-010 fails; when the signature is upper case, HOOK-011', () => {
    expect(
      failure(() => assertSignedDelivery(ctx, delivery({ ts: Math.floor(NOW / 1000) - 301 }), SECRET)).requirements,
    ).toEqual(['HOOK-010']);
    expect(
      failure(() =>
        assertSignedDelivery(
          ctx,
          delivery({ sign: (ts, body) => signWebhook(SECRET, ts, body).toUpperCase().replace('SHA256', 'sha256') }),
          SECRET,
        ),
      ).requirements,
    ).toEqual(['HOOK-011']);
  });

  it('when the delivery id is not a UUID or the method is not POST, then HOOK-012 or HOOK-002 fails', () => {
    expect(failure(() => assertSignedDelivery(ctx, delivery({ id: 'delivery-1' }), SECRET)).requirements).toEqual([
      'HOOK-012',
    ]);
    expect(failure(() => assertSignedDelivery(ctx, { ...delivery(), method: 'PUT' }, SECRET)).requirements).toEqual([
      'HOOK-002',
    ]);
  });

  it('when the body is not a CallbackBody, then HOOK-001 fails with the pointer', () => {
    const body = JSON.stringify({
      items: [
        {
          id: `${ITEM}_EventChanged`,
          trcid: 't',
          resourceUri: 'https://x/y',
          resourceType: 'EVENT',
          actionType: 'UPDATED',
        },
      ],
    });
    const f = failure(() => assertSignedDelivery(ctx, delivery({ body }), SECRET));
    expect(f.requirements).toEqual(['HOOK-001']);
    expect(f.pointer).toBe('/items/0/id');
  });
});

describe('assertSignatureBindsBodyAndTimestamp', () => {
  const propertyCtx = { seed: 7, fc: { seed: 7, numRuns: 200 }, exchanges: [] };
  const hmac = (...parts: string[]) => `sha256=${createHmac('sha256', SECRET).update(parts.join('')).digest('hex')}`;
  /** A verifier that checks the signature over less than "<timestamp>.<raw body>". */
  const lenient =
    (covers: (ts: string, body: string) => string): VerifyFn =>
    (rawBody, headers) => {
      const ok =
        headers['x-service-signature'] ===
        hmac(covers(headers['x-service-timestamp']!, Buffer.from(rawBody).toString('latin1')));
      return ok ? { ok: true } : { ok: false, reason: 'signature_mismatch' };
    };
  async function propertyFailure(run: () => Promise<void>): Promise<CheckFailure> {
    const error = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    if (error instanceof CheckFailure) return error;
    throw error ?? new Error('expected a CheckFailure');
  }

  it('when the delivery is signed over "<timestamp>.<raw body>", then it verifies and no changed byte of body or timestamp does', async () => {
    await expect(assertSignatureBindsBodyAndTimestamp(propertyCtx, delivery(), SECRET)).resolves.toBeUndefined();
  });

  it('when the signature covers the body only, then HOOK-013 fails on the delivery as received', async () => {
    const f = await propertyFailure(() =>
      assertSignatureBindsBodyAndTimestamp(propertyCtx, delivery({ sign: (_ts, body) => hmac(body) }), SECRET),
    );
    expect(f.requirements).toEqual(['HOOK-013', 'AUTH-009']);
    expect(f.message).toContain('HOOK-013: the delivery as received does not verify');
    expect(f.exchanges).toHaveLength(1);
  });

  it('when the verifier ignores the timestamp and the target signs the body only, then HOOK-013 fails naming the changed timestamp', async () => {
    const f = await propertyFailure(() =>
      assertSignatureBindsBodyAndTimestamp(propertyCtx, delivery({ sign: (_ts, body) => hmac(body) }), SECRET, {
        verify: lenient((_ts, body) => body),
      }),
    );
    expect(f.requirements).toEqual(['HOOK-013', 'AUTH-009']);
    expect(f.message).toMatch(
      /HOOK-013: the delivered X-Service-Signature still verifies after one change to "<timestamp>\.<raw body>": X-Service-Timestamp \d+ → \d+/,
    );
    expect(f.message).toContain(
      `the delivered signature ${hmac(BODY)}: the verification accepts a signature that does not cover the change`,
    );
    expect(f.message).toContain('Replay with --seed 7');
    expect(f.received).toMatch(/^accepted by the verifier with X-Service-Timestamp/);
  });

  it('when the verifier ignores the body and the target signs the timestamp only, then HOOK-013 fails naming the changed body byte, the same on replay', async () => {
    const run = () =>
      propertyFailure(() =>
        assertSignatureBindsBodyAndTimestamp(propertyCtx, delivery({ sign: (ts) => hmac(`${ts}.`) }), SECRET, {
          verify: lenient((ts) => `${ts}.`),
        }),
      );
    const f = await run();
    expect(f.message).toMatch(
      /still verifies after one change to "<timestamp>\.<raw body>": (body byte \d+|byte 0x[0-9a-f]{2})/,
    );
    expect((await run()).message).toBe(f.message);
  });
});

describe('assertRetriesOfOneDelivery', () => {
  const id = randomUUID();
  it('when retries keep the id and body and are signed afresh, then they pass', () => {
    expect(() =>
      assertRetriesOfOneDelivery(
        ctx,
        [delivery({ id }), delivery({ id, at: NOW + 2_400 }), delivery({ id, at: NOW + 7_000 })],
        SECRET,
      ),
    ).not.toThrow();
  });

  it('when a retry reuses the first timestamp although the receiver held two 5xx answers 600 ms, then HOOK-010 fails however late it arrived', () => {
    const held = (d: Delivery, status: number) => ({ ...d, response: { status, delayMs: 600 } });
    const ts = Math.floor(NOW / 1000);
    const attempts = [
      held(delivery({ id, ts }), 500),
      held(delivery({ id, ts, at: NOW + 800 }), 503),
      delivery({ id, ts, at: NOW + 1_800 }),
    ];
    const f = failure(() => assertRetriesOfOneDelivery(ctx, attempts, SECRET));
    expect(f.requirements).toEqual(['HOOK-010']);
    expect(f.message).toContain('held its earlier answers 1200 ms');
  });

  it('when a retry seconds later reuses the first timestamp, then HOOK-010 fails; arrival noise under 1.5 s is tolerated', () => {
    const ts = Math.floor(NOW / 1000);
    expect(
      failure(() =>
        assertRetriesOfOneDelivery(ctx, [delivery({ id, ts }), delivery({ id, ts, at: NOW + 5_000 })], SECRET),
      ).requirements,
    ).toEqual(['HOOK-010']);
    expect(() =>
      assertRetriesOfOneDelivery(ctx, [delivery({ id, ts }), delivery({ id, ts, at: NOW + 1_900 })], SECRET),
    ).not.toThrow();
  });

  it('when a retry has a new delivery id, then HOOK-012 fails; when its body differs, DEC-HOOK-008', () => {
    expect(
      failure(() => assertRetriesOfOneDelivery(ctx, [delivery({ id }), delivery({ at: NOW + 1_000 })], SECRET))
        .requirements,
    ).toEqual(['HOOK-012']);
    const reordered = JSON.stringify(JSON.parse(BODY), null, 1);
    expect(
      failure(() =>
        assertRetriesOfOneDelivery(ctx, [delivery({ id }), delivery({ id, at: NOW + 1_000, body: reordered })], SECRET),
      ).requirements,
    ).toEqual(['DEC-HOOK-008']);
  });
});

describe('dropOwnCallbackProblems', () => {
  function response(problems: HttpResponse['problems']): HttpResponse & { acknowledged: number } {
    const res = {
      problems,
      exchange: { problems },
      acknowledged: 0,
      assertConforms() {
        res.acknowledged++;
        if (res.problems.length > 0) throw new Error('problems');
      },
    };
    return res as unknown as HttpResponse & { acknowledged: number };
  }

  it("when the only problem is the echo of the suite's http: receiver URL, then nothing is left and it is acknowledged", () => {
    const res = response([
      { kind: 'body', message: 'pattern', pointer: '/callBackUrl', received: 'http://127.0.0.1:5/hooks/a' },
    ]);
    dropOwnCallbackProblems(res);
    expect(res.problems).toEqual([]);
    expect(res.acknowledged).toBe(1);
  });

  it('when other problems remain, then they stay deferred', () => {
    const other = { kind: 'body' as const, message: 'required', pointer: '/created', received: '(absent)' };
    const res = response([
      { kind: 'body', message: 'pattern', pointer: '/callBackUrl', received: 'http://127.0.0.1:5/hooks/a' },
      other,
    ]);
    dropOwnCallbackProblems(res);
    expect(res.problems).toEqual([other]);
    expect(res.acknowledged).toBe(0);
  });
});
