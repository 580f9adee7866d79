// The receiver checks: what a sender of signed webhooks sends, and the answer each one needs.
// Genuine deliveries must be acknowledged with a 2xx in time; every forgery must be refused,
// with a 4xx (permanent) rather than a 5xx (the service would retry it for about 24 hours).

import { WEBHOOK_HEADERS, WEBHOOK_MAX_ITEMS, WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS } from '../../generated/constants.ts';
import { CheckFailure } from '../model/failure.ts';
import type { Answer } from './send.ts';
import type { Delivery, SignOptions } from '../../client/webhooks/sampleDelivery.ts';
import {
  WEBHOOK_EVENT_TYPES as EVENT_TYPES,
  sampleCallbackBody as callbackBody,
  sampleCallbackItem as callbackItem,
  signedDelivery,
} from '../../client/webhooks/sampleDelivery.ts';

export interface ReceiverContext {
  readonly secret: string;
  readonly ackTimeoutMs: number;
  send(delivery: Delivery, note?: string): Promise<Answer>;
  /** Requirements this check has shown to hold, even if it later fails on another one. */
  verified(...ids: string[]): void;
  note(text: string): void;
}

export interface ReceiverCheck {
  /** `receiver.<name>`, stable: reports and --only use it. */
  id: string;
  title: string;
  requirements: readonly string[];
  run(ctx: ReceiverContext): Promise<void>;
}

const RETRY = 'HOOK-024';
const SIGNATURE = 'HOOK-023';
const is2xx = (a: Answer) => a.status !== undefined && a.status >= 200 && a.status < 300;

function received(a: Answer): string {
  return a.status !== undefined ? `HTTP ${a.status} after ${a.durationMs} ms` : `${a.error} (after ${a.durationMs} ms)`;
}

async function expectAccepted(ctx: ReceiverContext, delivery: Delivery, what: string, requirements: string[]) {
  const answer = await ctx.send(delivery, what);
  if (is2xx(answer)) return answer;
  const lost =
    answer.status !== undefined && answer.status < 500
      ? 'a 4xx is permanent: the service drops this genuine delivery'
      : 'the service retries it, and the receiver never gets it in time';
  throw new CheckFailure({
    message: `${what}: not acknowledged with a 2xx within ${ctx.ackTimeoutMs / 1000} s; ${lost}`,
    received: received(answer),
    expected: `a 2xx within ${ctx.ackTimeoutMs} ms`,
    requirements,
    exchanges: [answer.exchange],
  });
}

/** A forgery: refused (HOOK-023 or the given MUST), and refused with a 4xx (HOOK-024). */
async function expectRejected(ctx: ReceiverContext, delivery: Delivery, what: string, must: string[]) {
  const answer = await ctx.send(delivery, what);
  if (is2xx(answer)) {
    throw new CheckFailure({
      message: `${what}: accepted; a receiver must refuse it`,
      received: received(answer),
      expected: 'any status but a 2xx, best a 4xx',
      requirements: must,
      exchanges: [answer.exchange],
    });
  }
  ctx.verified(...must);
  if (answer.status === undefined || answer.status >= 500) {
    throw new CheckFailure({
      message: `${what}: refused with ${answer.status ?? 'no answer'}, which the service treats as transient: the forgery would be retried for 24 hours`,
      received: received(answer),
      expected: 'a 4xx, which is permanent',
      requirements: [RETRY],
      exchanges: [answer.exchange],
    });
  }
}

const oneItemBody = () => callbackBody([callbackItem('EventUpdated')]);
const now = () => Math.floor(Date.now() / 1000);

function forgery(id: string, title: string, must: string[], make: (secret: string) => Delivery): ReceiverCheck {
  return {
    id,
    title,
    requirements: [...must, RETRY],
    run: (ctx) => expectRejected(ctx, make(ctx.secret), title, must),
  };
}

const sign = (secret: string, body: string, options?: SignOptions) => signedDelivery(secret, body, options);

export const RECEIVER_CHECKS: readonly ReceiverCheck[] = [
  {
    id: 'receiver.accepts-batched-event-types',
    title: 'A signed delivery batching all ten event types is acknowledged with a 2xx within 5 s',
    requirements: ['HOOK-017'],
    run: async (ctx) => {
      const body = callbackBody(EVENT_TYPES.map((t) => callbackItem(t.name)));
      await expectAccepted(ctx, sign(ctx.secret, body), 'a batch of all ten event types', ['HOOK-017']);
    },
  },
  {
    id: 'receiver.accepts-each-event-type',
    title: 'A signed delivery of each event type alone is acknowledged with a 2xx within 5 s',
    requirements: ['HOOK-017'],
    run: async (ctx) => {
      for (const type of EVENT_TYPES) {
        const body = callbackBody([callbackItem(type.name)]);
        await expectAccepted(ctx, sign(ctx.secret, body), `a delivery of one ${type.name}`, ['HOOK-017']);
      }
    },
  },
  {
    id: 'receiver.accepts-largest-batch',
    title: `A signed delivery of ${WEBHOOK_MAX_ITEMS} items, the largest batch, is acknowledged with a 2xx within 5 s`,
    requirements: ['HOOK-017'],
    run: async (ctx) => {
      const items = Array.from({ length: WEBHOOK_MAX_ITEMS }, (_, i) => callbackItem(EVENT_TYPES[i % 10]!.name));
      const body = callbackBody(items);
      await expectAccepted(ctx, sign(ctx.secret, body), `a batch of ${WEBHOOK_MAX_ITEMS} items`, ['HOOK-017']);
    },
  },
  {
    id: 'receiver.acknowledges-duplicate',
    title: 'The same delivery twice (same X-Service-Delivery) is acknowledged with a 2xx both times',
    requirements: ['HOOK-021'],
    run: async (ctx) => {
      const body = oneItemBody();
      const first = sign(ctx.secret, body);
      await expectAccepted(ctx, first, 'the first attempt of a delivery', ['HOOK-017']);
      // A retry is signed afresh with a new timestamp but keeps the delivery id.
      const retry = sign(ctx.secret, body, { deliveryId: first.deliveryId, timestamp: first.timestamp + 1 });
      await expectAccepted(ctx, retry, `a second attempt of delivery ${first.deliveryId}`, ['HOOK-021']);
    },
  },
  forgery('receiver.rejects-tampered-body', 'A body changed after signing is refused', [SIGNATURE], (secret) => {
    const body = oneItemBody();
    return sign(secret, body.replace('"UPDATED"', '"DELETED"'), { signedBody: body });
  }),
  forgery('receiver.rejects-wrong-secret', 'A delivery signed with another secret is refused', [SIGNATURE], (secret) =>
    sign(`${secret}-not-it`, oneItemBody()),
  ),
  forgery(
    'receiver.rejects-missing-signature',
    `A delivery without ${WEBHOOK_HEADERS.signature} is refused`,
    [SIGNATURE],
    (secret) => sign(secret, oneItemBody(), { signature: null }),
  ),
  forgery(
    'receiver.rejects-malformed-signature',
    `A delivery whose ${WEBHOOK_HEADERS.signature} lacks the sha256= prefix is refused`,
    [SIGNATURE],
    (secret) => {
      const body = oneItemBody();
      const good = sign(secret, body).headers[WEBHOOK_HEADERS.signature]!;
      return sign(secret, body, { signature: good.slice('sha256='.length) });
    },
  ),
  forgery(
    'receiver.rejects-uppercase-hex',
    `A delivery whose ${WEBHOOK_HEADERS.signature} has upper-case hex is refused`,
    [SIGNATURE],
    (secret) => {
      const body = oneItemBody();
      const good = sign(secret, body).headers[WEBHOOK_HEADERS.signature]!;
      return sign(secret, body, { signature: `sha256=${good.slice('sha256='.length).toUpperCase()}` });
    },
  ),
  forgery(
    'receiver.rejects-reserialised-signature',
    'A delivery signed over re-serialised JSON instead of the raw body is refused',
    ['HOOK-015'],
    (secret) => {
      const compact = oneItemBody();
      // Same JSON value, other bytes: only a receiver that re-serialises the parsed body accepts it.
      const spaced = JSON.stringify(JSON.parse(compact), null, 2);
      return sign(secret, spaced, { signedBody: compact });
    },
  ),
  forgery(
    'receiver.rejects-stale-timestamp',
    `A correctly signed delivery ${WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS + 1} s old is refused`,
    ['HOOK-014'],
    (secret) => sign(secret, oneItemBody(), { timestamp: now() - WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS - 1 }),
  ),
  forgery(
    'receiver.rejects-future-timestamp',
    `A correctly signed delivery ${WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS + 1} s ahead is refused`,
    ['HOOK-014'],
    // Rounded up, so a second ticking over on the receiver's side never brings it back within 300 s.
    (secret) =>
      sign(secret, oneItemBody(), {
        timestamp: Math.ceil(Date.now() / 1000) + WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS + 1,
      }),
  ),
];
