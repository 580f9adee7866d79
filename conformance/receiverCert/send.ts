// POSTs one delivery to the receiver and records the exchange the reports show. The answer
// counts when its status line and headers arrive (HOOK-017: "answer any 2xx within 5 seconds").

import type { Exchange } from '../model/exchange.ts';
import { excerpt } from '../model/exchange.ts';
import type { Delivery } from '../../client/webhooks/sampleDelivery.ts';

export interface Answer {
  status?: number;
  /** Time to the response headers, or to the error. */
  durationMs: number;
  /** No headers within the acknowledgement limit. */
  timedOut: boolean;
  error?: string;
  exchange: Exchange;
}

export interface Sender {
  send(delivery: Delivery, note?: string): Promise<Answer>;
  readonly exchanges: Exchange[];
}

export function createSender(url: string, ackTimeoutMs: number): Sender {
  const exchanges: Exchange[] = [];
  let seq = 0;
  return {
    exchanges,
    async send(delivery, note) {
      const startedAt = new Date();
      const started = performance.now();
      const request = {
        method: 'POST',
        url,
        headers: { ...delivery.headers },
        bodyBytes: Buffer.byteLength(delivery.body),
        ...excerpt(delivery.body),
      };
      let answer: Omit<Answer, 'exchange'>;
      let response: Exchange['response'];
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: delivery.headers,
          body: delivery.body,
          redirect: 'manual',
          signal: AbortSignal.timeout(ackTimeoutMs),
        });
        const durationMs = Math.round(performance.now() - started);
        // The body only for the report; a slow body after timely headers is still an answer.
        const text = await res.text().catch(() => '');
        response = {
          status: res.status,
          headers: Object.fromEntries(res.headers),
          bodyBytes: Buffer.byteLength(text),
          ...excerpt(text, 1024),
        };
        answer = { status: res.status, durationMs, timedOut: false };
      } catch (error) {
        const durationMs = Math.round(performance.now() - started);
        const timedOut = (error as Error).name === 'TimeoutError';
        const cause = (error as { cause?: Error }).cause;
        answer = {
          durationMs,
          timedOut,
          error: timedOut ? `no answer within ${ackTimeoutMs} ms` : (cause?.message ?? (error as Error).message),
        };
      }
      const exchange: Exchange = {
        seq: ++seq,
        startedAt: startedAt.toISOString(),
        durationMs: answer.durationMs,
        request,
        ...(response ? { response } : { error: answer.error }),
        ...(note ? { note } : {}),
      };
      exchanges.push(exchange);
      return { ...answer, exchange };
    },
  };
}
