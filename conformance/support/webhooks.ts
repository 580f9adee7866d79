// Webhook checks: a token whose callBackUrl is one of the receiver's endpoints, the events its
// deliveries should carry, and the assertions every delivery must pass (headers, freshness,
// signature verified with the client library's verifier, CallbackBody schema).
//
//   const hook = await hookToken(ctx, 'signed');
//   const event = await createItem(ctx, '/events', { wfstatus: 'approved' });
//   const { delivery } = await waitForCallback(ctx, hook, callbackId(event.id, '/events', 'UPDATED'));
//   assertSignedDelivery(ctx, delivery, hook.secret);

import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { signWebhook, verifyWebhook } from '../../client/webhooks/verify.ts';
import {
  RESOURCE_TYPES,
  WEBHOOK_EVENT_NAMES,
  WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS,
  type EntityType,
  type ResourceType,
} from '../../generated/constants.ts';
import { applySignedPayloadChange, signedPayloadChange } from '../arbitraries/signedPayloadChange.ts';
import { DEFAULT_WEBHOOK_TIMING } from '../config/config.ts';
import type { WebhookTiming } from '../config/config.ts';
import type { Exchange } from '../model/exchange.ts';
import { CheckFailure } from '../model/failure.ts';
import type { CheckFailureInit } from '../model/failure.ts';
import type { Delivery, ReceiverEndpoint } from '../receiver/receiver.ts';
import { clientVerifier } from '../receiver/verifier.ts';
import type { VerifyFn } from '../receiver/verifier.ts';
import type { CheckContext } from '../engine/runtime/context.ts';
import { assertProperty } from './property.ts';
import { COLLECTIONS } from './collections.ts';
import type { CollectionPath } from './itemTypes.ts';
import { deleteTokenQuietly, mintToken, narrowedTo } from './tokens.ts';
import type { MintedToken } from './tokens.ts';

export type ActionType = 'UPDATED' | 'DELETED';

export interface Resource {
  path: CollectionPath;
  entitytype: EntityType;
  /** CallbackItem.resourceType (HOOK-001). */
  resourceType: ResourceType;
  /** The event type names are `<name>Updated` and `<name>Deleted` (HOOK-005). */
  name: (typeof WEBHOOK_EVENT_NAMES)[EntityType];
}

export const RESOURCES: readonly Resource[] = COLLECTIONS.map(({ path, entitytype }) => ({
  path,
  entitytype,
  resourceType: RESOURCE_TYPES[entitytype],
  name: WEBHOOK_EVENT_NAMES[entitytype],
}));

export function resourceOf(path: CollectionPath): Resource {
  return RESOURCES.find((r) => r.path === path)!;
}

/** `EventUpdated`, `VenueDeleted`, …: one of the ten event types (HOOK-005). */
export function eventType(path: CollectionPath, action: ActionType): string {
  return `${resourceOf(path).name}${action === 'UPDATED' ? 'Updated' : 'Deleted'}`;
}

/** CallbackItem.id: `<internal id>_<event type>` (HOOK-001). */
export function callbackId(itemId: string, path: CollectionPath, action: ActionType): string {
  return `${itemId}_${eventType(path, action)}`;
}

export function timing(ctx: Pick<CheckContext, 'config'>): WebhookTiming {
  return ctx.config.webhook ?? DEFAULT_WEBHOOK_TIMING;
}

// ---------------------------------------------------------------- tokens with a webhook

export interface HookToken {
  id: string;
  bearer: string | undefined;
  secret: string;
  endpoint: ReceiverEndpoint;
  minted: MintedToken;
  /** Delete the token now (its webhook would otherwise hear of later checks' items). */
  dispose(): Promise<void>;
}

export interface HookTokenOptions {
  /** Organisations the token is narrowed to (see narrowedTo); default: the account's. */
  organisations?: readonly string[];
  /** Statuses the token is narrowed to; default: the target's (live only). */
  wfstatus?: readonly string[];
  /** Requirements a failure to set it up is about (default: the check's). */
  requirements?: readonly string[];
}

/**
 * A token whose callBackUrl is the receiver endpoint `<check id>.<label>`, with the endpoint
 * verifying deliveries with its signing secret. Deleted at the end of the run; call dispose()
 * when the check is done with it.
 */
export async function hookToken(ctx: CheckContext, label: string, options: HookTokenOptions = {}): Promise<HookToken> {
  const endpoint = ctx.receiver.endpoint(`${ctx.check.id}.${label}`);
  const filter =
    options.organisations || options.wfstatus
      ? narrowedTo(ctx, { organisations: options.organisations, statuses: options.wfstatus })
      : {};
  const minted = await mintToken(
    ctx,
    { name: ctx.tag(`hook ${label}`), callBackUrl: endpoint.url, ...filter },
    { requirements: options.requirements },
  );
  if (!minted.secret) {
    throw new CheckFailure({
      message: `POST ${new URL(minted.response.url).pathname} with a callBackUrl answered no signingSecret`,
      received: Object.keys(minted.answer),
      expected: 'a signingSecret member (returned once when a callback URL is given)',
      pointer: '/signingSecret',
      requirements: ['TOKEN-002', 'TOKEN-003'],
      exchanges: [minted.response.exchange],
    });
  }
  endpoint.setSecret(minted.secret);
  let disposed = false;
  return {
    id: minted.id,
    bearer: minted.bearer,
    secret: minted.secret,
    endpoint,
    minted,
    async dispose() {
      if (disposed) return;
      disposed = true;
      await deleteTokenQuietly(ctx, minted.id);
    },
  };
}

/** Runs `body` with the tokens, then deletes them whatever happened. */
export async function disposing<T>(
  tokens: readonly { dispose(): Promise<void> }[],
  body: () => Promise<T>,
): Promise<T> {
  try {
    return await body();
  } finally {
    await Promise.all(tokens.map((t) => t.dispose().catch(() => {})));
  }
}

// ---------------------------------------------------------------- deliveries

export interface CallbackItem {
  id: string;
  trcid?: unknown;
  resourceUri?: unknown;
  resourceType?: unknown;
  actionType?: unknown;
  [member: string]: unknown;
}

/** The items of a delivery's body (empty when the body is not a CallbackBody). */
export function callbackItems(delivery: Delivery): CallbackItem[] {
  const body = delivery.json() as { items?: unknown } | undefined;
  if (!body || !Array.isArray(body.items)) return [];
  return body.items.filter(
    (i): i is CallbackItem => typeof i === 'object' && i !== null && typeof (i as { id?: unknown }).id === 'string',
  );
}

export function holds(id: string): (delivery: Delivery) => boolean {
  return (d) => callbackItems(d).some((i) => i.id === id);
}

/** The delivery as an exchange, so reports show it like any request (the receiver's answer as the response). */
export function deliveryExchange(delivery: Delivery): Exchange {
  const body = delivery.rawBody.toString('utf8');
  return {
    seq: delivery.seq,
    startedAt: new Date(delivery.receivedAt).toISOString(),
    durationMs: 0,
    request: {
      method: delivery.method,
      url: `(webhook delivery to the suite's receiver) ${delivery.path}`,
      headers: delivery.headers,
      body: body.length > 4096 ? `${body.slice(0, 4096)}…` : body,
      bodyBytes: delivery.rawBody.length,
      truncated: body.length > 4096,
    },
    response: {
      status: delivery.response.hangUp ? 0 : delivery.response.status,
      headers: {},
      bodyBytes: 0,
      truncated: false,
    },
    note: delivery.response.hangUp
      ? 'the receiver hung up without answering'
      : delivery.response.delayMs
        ? `the receiver held its answer ${delivery.response.delayMs} ms`
        : undefined,
  };
}

/** A CheckFailure whose evidence is the given deliveries. */
export function deliveryFailure(
  init: Omit<CheckFailureInit, 'exchanges'>,
  deliveries: readonly Delivery[],
): CheckFailure {
  return new CheckFailure({ ...init, exchanges: deliveries.map(deliveryExchange) });
}

/** The first delivery at the hook's endpoint holding the callback id, and that item. */
export async function waitForCallback(
  ctx: CheckContext,
  hook: Pick<HookToken, 'endpoint'>,
  id: string,
  requirements?: readonly string[],
): Promise<{ delivery: Delivery; item: CallbackItem }> {
  try {
    const delivery = await hook.endpoint.waitFor(holds(id), timing(ctx).waitMs, `delivery holding ${id}`);
    return { delivery, item: callbackItems(delivery).find((i) => i.id === id)! };
  } catch (error) {
    if (error instanceof CheckFailure) {
      const seen = hook.endpoint.deliveries.flatMap((d) => callbackItems(d).map((i) => i.id));
      throw deliveryFailure(
        {
          message: `${error.message}; item ids delivered there: ${seen.slice(-10).join(', ') || '(none)'}`,
          received: seen.length > 0 ? seen.slice(-10) : 'no delivery',
          expected: `a delivery holding ${id} within ${timing(ctx).waitMs} ms (--webhook-wait)`,
          requirements,
        },
        hook.endpoint.deliveries.slice(-3),
      );
    }
    throw error;
  }
}

// ---------------------------------------------------------------- a delivery's form

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SIGNATURE_RE = /^sha256=[0-9a-f]{64}$/;

/** Which wrong signing scheme, if any, produced the signature: the diagnosis for a mismatch. */
function diagnoseSignature(delivery: Delivery, secret: string): string | undefined {
  const given = delivery.headers['x-service-signature'];
  const ts = delivery.headers['x-service-timestamp'] ?? '';
  const hmac = (key: Buffer | string, ...parts: (string | Buffer)[]) => {
    const h = createHmac('sha256', key);
    for (const p of parts) h.update(p);
    return `sha256=${h.digest('hex')}`;
  };
  const variants: [string, string][] = [
    ['the body only, without "<timestamp>."', hmac(secret, delivery.rawBody)],
    ['"<timestamp><body>" without the dot', hmac(secret, ts, delivery.rawBody)],
    ['the base64-decoded secret as the key', hmac(Buffer.from(secret, 'base64url'), `${ts}.`, delivery.rawBody)],
  ];
  try {
    variants.push([
      'a re-serialised body (JSON.stringify of the parsed body)',
      signWebhook(secret, ts, JSON.stringify(delivery.json())),
    ]);
  } catch {
    // not JSON or not a timestamp: nothing to compare
  }
  return variants.find(([, sig]) => sig === given)?.[0];
}

export interface SignedDeliveryOptions {
  /** Check the body against CallbackBody too (default true). */
  body?: boolean;
}

/**
 * One delivery, as Events rules 5–7 and the CallbackBody require: a POST with the three headers,
 * a timestamp within 300 s of the receiver's clock, a signature the client library's verifier
 * accepts with `secret`, and a body valid against CallbackBody. Failures are narrowed to the
 * rule they break: HOOK-002 (POST), HOOK-010 (timestamp), HOOK-011 (signature form), HOOK-012
 * (delivery id), HOOK-013 and AUTH-009 (signature over "<timestamp>.<raw body>"), HOOK-001 (body).
 */
export function assertSignedDelivery(
  ctx: CheckContext,
  delivery: Delivery,
  secret: string,
  options: SignedDeliveryOptions = {},
): void {
  const fail = (init: Omit<CheckFailureInit, 'exchanges'>) => deliveryFailure(init, [delivery]);
  if (delivery.method !== 'POST')
    throw fail({
      message: `a webhook delivery used ${delivery.method}`,
      received: delivery.method,
      expected: 'POST',
      requirements: ['HOOK-002'],
    });

  const ts = delivery.headers['x-service-timestamp'];
  if (ts === undefined || !/^\d{1,12}$/.test(ts)) {
    throw fail({
      message: 'X-Service-Timestamp is missing or not Unix epoch seconds',
      received: ts ?? '(absent)',
      expected: 'whole epoch seconds, e.g. 1795321353',
      pointer: 'header/X-Service-Timestamp',
      requirements: ['HOOK-010'],
    });
  }
  const skew = Number(ts) - Math.floor(delivery.receivedAt / 1000);
  if (Math.abs(skew) > WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS) {
    throw fail({
      message: `X-Service-Timestamp is ${skew} s off the receiver's clock; a receiver rejects more than ${WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS} s`,
      received: `${ts} (${new Date(Number(ts) * 1000).toISOString()})`,
      expected: `within ${WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS} s of ${new Date(delivery.receivedAt).toISOString()}`,
      pointer: 'header/X-Service-Timestamp',
      requirements: ['HOOK-010'],
    });
  }
  const signature = delivery.headers['x-service-signature'];
  if (signature === undefined || !SIGNATURE_RE.test(signature)) {
    throw fail({
      message: 'X-Service-Signature is missing or not "sha256=" and 64 lower-case hex digits',
      received: signature ?? '(absent)',
      expected: 'sha256=<64 lower-case hex digits>',
      pointer: 'header/X-Service-Signature',
      requirements: ['HOOK-011'],
    });
  }
  const id = delivery.headers['x-service-delivery'];
  if (id === undefined || !UUID_RE.test(id)) {
    throw fail({
      message: 'X-Service-Delivery is missing or not a UUID',
      received: id ?? '(absent)',
      expected: 'a UUID',
      pointer: 'header/X-Service-Delivery',
      requirements: ['HOOK-012'],
    });
  }
  const verified = verifyWebhook(delivery.rawBody, delivery.headers, secret, {
    now: delivery.receivedAt,
    toleranceSeconds: WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS,
  });
  if (!verified.ok) {
    const wrong = diagnoseSignature(delivery, secret);
    throw fail({
      message: `the signature does not verify with the token's signingSecret (client verifier: ${verified.reason})${wrong ? `; it matches an HMAC over ${wrong}` : ''}`,
      received: signature,
      expected: `sha256=hex(HMAC-SHA256(signingSecret, "${ts}." + raw body))`,
      pointer: 'header/X-Service-Signature',
      requirements: ['HOOK-013', 'AUTH-009'],
    });
  }
  if (options.body === false) return;
  const body = delivery.json();
  const problems =
    body === undefined
      ? [
          {
            message: 'the body is not JSON',
            pointer: '',
            received: delivery.rawBody.toString('utf8', 0, 200),
            expected: 'a CallbackBody',
          },
        ]
      : ctx.spec.validator.validateSchema('/components/schemas/CallbackBody', body);
  const first = problems[0];
  if (first) {
    throw fail({
      message: `the delivery body is not a valid CallbackBody: ${first.message}`,
      received: first.received,
      expected: first.expected,
      pointer: first.pointer,
      requirements: ['HOOK-001'],
    });
  }
}

export interface SignatureBindingOptions {
  /** Runs of the property (default the run's --num-runs). */
  numRuns?: number;
  /** The verifier the property holds to (default the client library's, as everywhere in the suite). */
  verify?: VerifyFn;
}

/**
 * The delivery as received verifies with `secret`, and (property) after any one change to what the
 * signature covers (a body byte changed, inserted or removed; the timestamp moved or one of its
 * digits changed) neither does the HMAC over the changed "<timestamp>.<body>" equal the delivered
 * X-Service-Signature nor does the verifier accept it. Failures name HOOK-013 and AUTH-009 and
 * say what was changed.
 *
 * Once the delivery as received verifies, a change that still verifies would be an HMAC-SHA256
 * collision: on a real target this fails where the verification the suite relies on is lenient (a
 * verifier that ignores the timestamp, or part of the body), which would let a target signing
 * less than "<timestamp>.<raw body>" pass. It holds the suite's verdict on real deliveries to the
 * rule receivers implement; the client's unit tests cover the verifier on generated ones.
 */
export async function assertSignatureBindsBodyAndTimestamp(
  ctx: Pick<CheckContext, 'seed' | 'fc' | 'exchanges'>,
  delivery: Delivery,
  secret: string,
  options: SignatureBindingOptions = {},
): Promise<void> {
  const verify = options.verify ?? clientVerifier;
  const signature = delivery.headers['x-service-signature'] ?? '(absent)';
  const timestamp = delivery.headers['x-service-timestamp'] ?? '(absent)';
  const requirements = ['HOOK-013', 'AUTH-009'];
  const asReceived = verify(delivery.rawBody, delivery.headers, secret, {
    now: delivery.receivedAt,
    toleranceSeconds: WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS,
  });
  if (!asReceived.ok) {
    throw deliveryFailure(
      {
        message: `HOOK-013: the delivery as received does not verify with the token's signingSecret (verifier: ${asReceived.reason ?? 'rejected'}), so no change to it can be told apart`,
        received: `${signature} for timestamp ${timestamp} and ${delivery.rawBody.length} body bytes`,
        expected: `sha256=hex(HMAC-SHA256(signingSecret, "${timestamp}." + raw body))`,
        pointer: 'header/X-Service-Signature',
        requirements,
      },
      [delivery],
    );
  }
  await assertProperty(
    ctx,
    fc.property(signedPayloadChange(), (change) => {
      const changed = applySignedPayloadChange({ timestamp, body: delivery.rawBody }, change);
      const recomputed = signWebhook(secret, changed.timestamp, changed.body);
      // The changed timestamp is the receiver's clock, so only the signature can tell the difference.
      const outcome = verify(changed.body, { ...delivery.headers, 'x-service-timestamp': changed.timestamp }, secret, {
        now: Number(changed.timestamp) * 1000,
        toleranceSeconds: WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS,
      });
      if (outcome.ok || recomputed === signature) {
        throw deliveryFailure(
          {
            message: `HOOK-013: the delivered X-Service-Signature ${outcome.ok ? 'still verifies' : 'still equals the HMAC'} after one change to "<timestamp>.<raw body>": ${changed.what}. The HMAC over the changed payload is ${recomputed}, the delivered signature ${signature}${outcome.ok && recomputed !== signature ? ': the verification accepts a signature that does not cover the change' : ''}`,
            received: `${outcome.ok ? 'accepted by the verifier' : 'the same signature'} with ${changed.what}`,
            expected: 'signature_mismatch: the signature covers every byte of the timestamp and the raw body',
            pointer: 'header/X-Service-Signature',
            requirements,
          },
          [delivery],
        );
      }
      if (outcome.reason !== 'signature_mismatch') {
        // The change must leave a well-formed, fresh delivery, or the signature was never compared.
        throw new CheckFailure({
          kind: 'error',
          message: `bug in the check: the verifier rejected a changed delivery for ${outcome.reason ?? 'another reason'} (${changed.what}), not for its signature`,
        });
      }
    }),
    { numRuns: options.numRuns ?? ctx.fc.numRuns },
  );
}

/** Does the delivery verify with this secret (client verifier, receiver's clock)? */
export function verifiesWith(delivery: Delivery, secret: string): boolean {
  return verifyWebhook(delivery.rawBody, delivery.headers, secret, {
    now: delivery.receivedAt,
    toleranceSeconds: WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS,
  }).ok;
}

/** The deliveries at an endpoint that carry this X-Service-Delivery, in arrival order. */
export function attemptsOf(endpoint: ReceiverEndpoint, deliveryId: string): Delivery[] {
  return endpoint.deliveries.filter((d) => d.headers['x-service-delivery'] === deliveryId);
}

// ---------------------------------------------------------------- retries

/**
 * The attempts of one delivery: `first`, then up to `count - 1` more deliveries holding the same
 * callback item, each awaited at most `waitMs`. Fewer come back when the target did not retry
 * in time. A retry is recognised by its content, not its X-Service-Delivery, so that a retry
 * with a new delivery id is caught (HOOK-012) instead of timing out.
 */
export async function collectAttempts(
  endpoint: ReceiverEndpoint,
  first: Delivery,
  itemId: string,
  count: number,
  waitMs: number,
  options: { required?: number; optionalWaitMs?: number } = {},
): Promise<Delivery[]> {
  const attempts = [first];
  while (attempts.length < count) {
    const last = attempts.at(-1)!;
    // Attempts beyond the required ones come quickly only with a short test schedule: wait less.
    const wait =
      attempts.length < (options.required ?? count) ? waitMs : Math.min(waitMs, options.optionalWaitMs ?? waitMs);
    const next = await endpoint
      .waitFor(
        (d) => d.seq > last.seq && holds(itemId)(d),
        wait,
        `attempt ${attempts.length + 1} of the delivery holding ${itemId}`,
      )
      .catch(() => undefined);
    if (!next) break;
    attempts.push(next);
  }
  return attempts;
}

/** Clock noise allowed between the target's timestamps and the receiver's arrival times (event-loop delays under load). */
const ARRIVAL_NOISE_SECONDS = 1.5;

/**
 * Retries of one delivery (Events rules 5 and 9): every attempt carries the same X-Service-Delivery
 * (HOOK-012), is signed afresh (HOOK-010) and verifies with the secret (HOOK-013), and the body
 * bytes are identical (DEC-HOOK-008; checked last, as a decision).
 *
 * "Signed afresh" is judged two ways. Free of timing noise: the target cannot sign an attempt
 * before the receiver answered the previous ones, and the receiver held its 5xx answers for a
 * known time, so the timestamp must have advanced by at least the whole seconds of those holds.
 * Robust to noise: the timestamps track the arrival times within 1 s (whole seconds) plus 1.5 s.
 */
export function assertRetriesOfOneDelivery(ctx: CheckContext, attempts: readonly Delivery[], secret: string): void {
  const [first, ...retries] = attempts;
  if (!first) return;
  const id = first.headers['x-service-delivery'];
  for (const attempt of attempts) assertSignedDelivery(ctx, attempt, secret);
  let heldMs = 0;
  for (const [k, retry] of retries.entries()) {
    const previous = attempts[k]!;
    // Only a 5xx held well under any sender's timeout bounds when the next attempt can be signed.
    if (previous.response.status >= 500 && !previous.response.hangUp && (previous.response.delayMs ?? 0) <= 2_000)
      heldMs += previous.response.delayMs ?? 0;
    if (retry.headers['x-service-delivery'] !== id) {
      throw deliveryFailure(
        {
          message: 'a retry carries another X-Service-Delivery than the first attempt: receivers cannot deduplicate it',
          received: retry.headers['x-service-delivery'],
          expected: id,
          pointer: 'header/X-Service-Delivery',
          requirements: ['HOOK-012'],
        },
        [first, retry],
      );
    }
    const elapsed = (retry.receivedAt - first.receivedAt) / 1000;
    const stamped = Number(retry.headers['x-service-timestamp']) - Number(first.headers['x-service-timestamp']);
    const atLeast = Math.floor(heldMs / 1000);
    if (stamped < atLeast || Math.abs(stamped - elapsed) > 1 + ARRIVAL_NOISE_SECONDS) {
      throw deliveryFailure(
        {
          message: `a retry ${elapsed.toFixed(1)} s after the first attempt carries a timestamp ${stamped} s after the first one's${stamped < atLeast ? `, although the receiver held its earlier answers ${heldMs} ms` : ''}: each attempt is signed afresh, with the time of signing`,
          received: `X-Service-Timestamp ${retry.headers['x-service-timestamp']} (first attempt: ${first.headers['x-service-timestamp']})`,
          expected: `at least ${Math.max(atLeast, Math.ceil(elapsed - 1 - ARRIVAL_NOISE_SECONDS))} s later than the first attempt's`,
          pointer: 'header/X-Service-Timestamp',
          requirements: ['HOOK-010'],
        },
        [first, retry],
      );
    }
  }
  ctx.verified(['HOOK-012', 'HOOK-010', 'HOOK-013']);
  for (const retry of retries) {
    if (!retry.rawBody.equals(first.rawBody)) {
      throw deliveryFailure(
        {
          message: "a retry's body differs from the first attempt's",
          received: retry.rawBody.toString('utf8', 0, 300),
          expected: first.rawBody.toString('utf8', 0, 300),
          requirements: ['DEC-HOOK-008'],
        },
        [first, retry],
      );
    }
  }
}

/** DEC-HOOK-008: JSON and the service's User-Agent on a delivery. */
export function assertDeliveryHeadersDecided(delivery: Delivery): void {
  const type = delivery.headers['content-type'] ?? '';
  const agent = delivery.headers['user-agent'] ?? '';
  const encoding = delivery.headers['content-encoding'];
  const problem = !/^application\/json\b/i.test(type)
    ? ['Content-Type', type || '(absent)', 'application/json']
    : agent !== 'ContentService-Webhooks/1'
      ? ['User-Agent', agent || '(absent)', 'ContentService-Webhooks/1']
      : encoding !== undefined && encoding !== 'identity'
        ? ['Content-Encoding', encoding, 'none (never compressed)']
        : undefined;
  if (problem)
    throw deliveryFailure(
      {
        message: `the delivery's ${problem[0]} is ${problem[1]}`,
        received: problem[1],
        expected: problem[2],
        pointer: `header/${problem[0]}`,
        requirements: ['DEC-HOOK-008'],
      },
      [delivery],
    );
}
