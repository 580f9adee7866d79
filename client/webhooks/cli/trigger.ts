// `content-webhooks trigger`: one signed delivery, sent now, and what the receiver answered.

import { sampleCallbackBody, sampleCallbackItem, signedDelivery } from '../sampleDelivery.ts';
import type { TriggerCommand } from './args.ts';

export interface TriggerOutcome {
  ok: boolean;
  lines: string[];
}

/** The interface's acknowledgement limit (HOOK-017): a receiver answers within 5 s. */
const ACK_LIMIT_MS = 5_000;
/** How much of the receiver's answer body is printed. */
const ANSWER_EXCERPT_CHARS = 240;

export async function trigger(command: TriggerCommand): Promise<TriggerOutcome> {
  const items = Array.from({ length: command.items }, () =>
    sampleCallbackItem(command.eventType, command.resourceBase),
  );
  const delivery = signedDelivery(command.secret, sampleCallbackBody(items));
  const head = `${command.eventType} delivery ${delivery.deliveryId} (${items.length} item${items.length === 1 ? '' : 's'}) → ${command.forwardTo}`;
  const started = performance.now();
  try {
    const res = await fetch(command.forwardTo, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(ACK_LIMIT_MS),
    });
    const ms = Math.round(performance.now() - started);
    const text = (await res.text().catch(() => '')).slice(0, ANSWER_EXCERPT_CHARS);
    const ok = res.status >= 200 && res.status < 300;
    return {
      ok,
      lines: [
        `${head}: HTTP ${res.status} in ${ms} ms${ok ? '' : ' (not a 2xx: the service would retry a 5xx, and drop it on any other status)'}`,
        ...items.map((i) => `  ${i.actionType} ${i.resourceType} ${i.trcid} ${i.resourceUri}`),
        ...(text ? [`  answer: ${text}`] : []),
      ],
    };
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
    return {
      ok: false,
      lines: [`${head}: ${timedOut ? `no answer within ${ACK_LIMIT_MS / 1000} s` : `could not connect: ${cause}`}`],
    };
  }
}
