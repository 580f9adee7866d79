// A webhook receiver that records every request with the answer it got: the status sent, or
// none when the connection closed first (the sender crashed or gave up). The answer of each
// request is decided by a swappable plan, which may also hold the answer back (a slow receiver).

import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import type { CallbackItem } from '../../../src/webhooks/batch.ts';

export interface RecordedRequest {
  /** Order of arrival, from 0. */
  index: number;
  receivedAt: number;
  deliveryId: string;
  timestamp: string;
  signature: string;
  body: Buffer;
  items: CallbackItem[];
  /** The status answered, or null while unanswered / when the connection closed first. */
  answered: number | null;
  /** The connection closed before an answer was sent. */
  abandoned: boolean;
}

export interface AnswerPlan {
  status: number;
  /** Hold the answer back this long (a slow receiver). */
  delayMs?: number;
}

export interface RecordingReceiver {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** How the next requests are answered. */
  plan(decide: (request: RecordedRequest) => AnswerPlan): void;
  close(): Promise<void>;
}

export async function startRecordingReceiver(
  decide: (request: RecordedRequest) => AnswerPlan = () => ({ status: 204 }),
): Promise<RecordingReceiver> {
  let current = decide;
  const requests: RecordedRequest[] = [];
  const receiver: Receiver = await startReceiver((req, res, body) => {
    const header = (name: string) => String(req.headers[name] ?? '');
    let items: CallbackItem[] = [];
    try {
      items = (JSON.parse(body.toString('utf8')) as { items: CallbackItem[] }).items;
    } catch {
      /* recorded with no items */
    }
    const request: RecordedRequest = {
      index: requests.length,
      receivedAt: Date.now(),
      deliveryId: header('x-service-delivery'),
      timestamp: header('x-service-timestamp'),
      signature: header('x-service-signature'),
      body,
      items,
      answered: null,
      abandoned: false,
    };
    requests.push(request);
    const { status, delayMs = 0 } = current(request);
    res.on('close', () => {
      if (request.answered === null) request.abandoned = true;
    });
    const send = () => {
      if (res.destroyed || res.writableEnded) return;
      request.answered = status;
      res.writeHead(status).end();
    };
    if (delayMs > 0) setTimeout(send, delayMs).unref();
    else send();
  });
  return {
    url: receiver.url,
    requests,
    plan(next) {
      current = next;
    },
    close: () => receiver.close(),
  };
}
