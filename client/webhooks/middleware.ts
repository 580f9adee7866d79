// @implements HOOK-017
// Express middleware that receives webhook deliveries (Events rules 7, 8, 10).
//
// It reads the raw body itself, so it works when mounted before any JSON parser, verifies the
// signature over those bytes before parsing (HOOK-015), answers at once (HOOK-017: 2xx within
// 5 s), deduplicates on X-Service-Delivery (HOOK-021), and only then hands the items to
// `onItems` in the background. Work done in `onItems` (fetching each `resourceUri`) never delays
// or changes the answer: once acknowledged, the service will not send the delivery again.

import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { CallbackItem as GeneratedCallbackItem, Readable } from '../../generated/types.ts';
import { parseJson } from '../../spec/json.ts';
import { createMemoryDeduper, type DeliveryDeduper } from './dedupe.ts';
import { verifyWebhook } from './verify.ts';

/**
 * One entry of the CallbackBody (`items[]`), as the spec types it. The receiver checks that
 * `trcid`, `resourceUri` and `actionType` are strings and passes every entry on unchanged, so
 * fields or enum values the spec does not name reach `onItems` too: keep a default branch.
 */
export type CallbackItem = Readable<GeneratedCallbackItem>;

// @implements HOOK-022
export interface DeliveryMeta {
  deliveryId: string;
  /** X-Service-Timestamp, epoch seconds. */
  timestamp: number;
  /** Receiver time in epoch milliseconds. */
  receivedAt: number;
}

/** pino-compatible subset. */
export interface ReceiverLogger {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  info?(obj: object, msg?: string): void;
}

export interface WebhookReceiverOptions {
  /** The signing secret, exactly as the service returned it. */
  secret?: string;
  /** Several secrets during a rotation window; a delivery signed with any of them passes. */
  secrets?: readonly string[];
  /** Called in the background after the 200 is sent; its errors are logged only. */
  onItems: (items: CallbackItem[], meta: DeliveryMeta) => unknown;
  /** Default: an in-memory deduper keeping ids 25 h. Pass `false` to process every delivery. */
  dedupe?: DeliveryDeduper | false;
  toleranceSeconds?: number;
  /** Default 1 MiB; a larger body is answered 413. */
  maxBodyBytes?: number;
  logger?: ReceiverLogger;
  /** Epoch milliseconds; injectable for tests. */
  clock?: () => number;
}

export interface WebhookReceiver extends RequestHandler {
  /** Resolves when every background `onItems` call started so far has settled (tests, shutdown). */
  drain(): Promise<void>;
}

const consoleLogger: ReceiverLogger = {
  error: (obj, msg) => console.error(msg ?? 'webhook receiver error', obj),
  warn: (obj, msg) => console.warn(msg ?? 'webhook receiver warning', obj),
};

class BodyTooLargeError extends Error {}

function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.resume(); // drain the rest without keeping it
        reject(new BodyTooLargeError(`body larger than ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

// A parser mounted earlier has consumed the stream; express.raw() leaves the bytes usable.
function alreadyRead(req: Request): Buffer | 'consumed' | undefined {
  if (Buffer.isBuffer(req.body)) return req.body;
  if ((req as { _body?: unknown })._body === true || req.readableEnded) return 'consumed';
  return undefined;
}

function parseItems(raw: Buffer): CallbackItem[] | string {
  let body: unknown;
  try {
    body = parseJson(raw.toString('utf8'));
  } catch {
    return 'body is not valid JSON';
  }
  const items = (body as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return 'body must be a CallbackBody object with an items array';
  for (const [i, item] of items.entries()) {
    for (const field of ['trcid', 'resourceUri', 'actionType'] as const) {
      if (typeof (item as Record<string, unknown> | null)?.[field] !== 'string')
        return `items[${i}].${field} must be a string`;
    }
  }
  return items as CallbackItem[];
}

export function webhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const secrets = options.secrets ?? (options.secret !== undefined ? [options.secret] : []);
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new TypeError('webhookReceiver needs `secret` or a non-empty `secrets` list of non-empty strings');
  }
  const dedupe = options.dedupe === false ? undefined : (options.dedupe ?? createMemoryDeduper());
  const logger = options.logger ?? consoleLogger;
  const clock = options.clock ?? Date.now;
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const inFlight = new Set<Promise<void>>();

  const answer = (res: Response, status: number, body: object) => {
    res.status(status).type('application/json').send(JSON.stringify(body));
  };

  function runInBackground(items: CallbackItem[], meta: DeliveryMeta): void {
    const job = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => options.onItems(items, meta))
      .then(
        () => undefined,
        (err: unknown) => logger.error({ err, deliveryId: meta.deliveryId }, 'webhook onItems handler failed'),
      )
      .finally(() => inFlight.delete(job));
    inFlight.add(job);
  }

  async function receive(req: Request, res: Response, _next: NextFunction): Promise<void> {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return answer(res, 405, { error: 'Method Not Allowed', message: 'webhook deliveries are POST requests' });
    }
    const receivedAt = clock();
    const pre = alreadyRead(req);
    if (pre === 'consumed') {
      // Verifying a re-serialised body would fail or, worse, pass on different bytes. A 5xx
      // makes the service retry, so nothing is lost while the mounting order is fixed.
      logger.error({ path: req.originalUrl }, 'webhook receiver mounted after a body parser: raw body unavailable');
      return answer(res, 500, {
        error: 'Internal Server Error',
        message: 'raw body unavailable: mount the webhook receiver before any JSON body parser',
      });
    }
    let raw: Buffer;
    try {
      raw = pre ?? (await readRawBody(req, maxBodyBytes));
    } catch (err) {
      if (err instanceof BodyTooLargeError)
        return answer(res, 413, { error: 'Payload Too Large', message: err.message });
      throw err;
    }

    const verdict = verifyWebhook(raw, req.headers, secrets, {
      toleranceSeconds: options.toleranceSeconds,
      now: receivedAt,
    });
    if (!verdict.ok) {
      logger.warn({ reason: verdict.reason, path: req.originalUrl }, 'webhook delivery rejected');
      return answer(res, 401, { error: 'Unauthorized', reason: verdict.reason, message: verdict.message });
    }

    // Dedupe only after verification, so forged requests cannot plant ids.
    if (dedupe) {
      let duplicate = false;
      try {
        duplicate = await dedupe.checkAndRemember(verdict.deliveryId);
      } catch (err) {
        // Processing twice is harmless (handlers refetch state); losing a delivery is not.
        logger.error({ err, deliveryId: verdict.deliveryId }, 'webhook dedupe store failed; processing the delivery');
      }
      if (duplicate) return answer(res, 200, { status: 'duplicate', deliveryId: verdict.deliveryId });
    }

    const items = parseItems(raw);
    if (typeof items === 'string') {
      await dedupe?.forget?.(verdict.deliveryId);
      return answer(res, 400, { error: 'Bad Request', message: items });
    }
    answer(res, 200, { status: 'accepted', deliveryId: verdict.deliveryId, items: items.length });
    runInBackground(items, { deliveryId: verdict.deliveryId, timestamp: verdict.timestamp, receivedAt });
  }

  const handler = ((req: Request, res: Response, next: NextFunction) => {
    receive(req, res, next).catch(next);
  }) as WebhookReceiver;
  handler.drain = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };
  return handler;
}
