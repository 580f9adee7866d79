// `content-webhooks trigger`: one signed delivery, sent now, and what the receiver answered.

import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { createContentClient } from '../../http/contentClient.ts';
import type { Collection } from '../../sync/types.ts';
import {
  callbackItemFor,
  collectionOf,
  sampleCallbackBody,
  sampleCallbackItem,
  signedDelivery,
  webhookEventType,
  type SampleItem,
} from '../sampleDelivery.ts';
import type { TriggerCommand } from './args.ts';

export interface TriggerOutcome {
  ok: boolean;
  lines: string[];
}

/** The interface's acknowledgement limit (HOOK-017): a receiver answers within 5 s. */
const ACK_LIMIT_MS = 5_000;
/** How much of the receiver's answer body is printed. */
const ANSWER_EXCERPT_CHARS = 240;

/**
 * The sandbox's newest items of the event type's collection the token sees, as the service would
 * announce them: live ones for *Updated, deleted ones for *Deleted (their resourceUri answers 404).
 */
async function sandboxItems(command: TriggerCommand, sandbox: NonNullable<TriggerCommand['sandbox']>) {
  const collection = collectionOf(command.eventType) as Collection;
  const deleted = webhookEventType(command.eventType).actionType === 'DELETED';
  const client = createContentClient({ baseUrl: sandbox.baseUrl, token: sandbox.token });
  try {
    const items = await client.listItems(collection, {
      size: command.items,
      sortField: 'lastupdated',
      sortOrder: 'DESC',
      ...(deleted ? { wfstatus: [WORKFLOW_STATUS.deleted] } : {}),
    });
    const announced = items.flatMap((i) =>
      typeof i.id === 'string' && typeof i.trcid === 'string'
        ? [callbackItemFor(command.eventType, { id: i.id, trcid: i.trcid }, sandbox.baseUrl)]
        : [],
    );
    return { collection, deleted, items: announced };
  } finally {
    await client.close();
  }
}

export async function trigger(command: TriggerCommand): Promise<TriggerOutcome> {
  let items: SampleItem[];
  if (command.sandbox) {
    let found;
    try {
      found = await sandboxItems(command, command.sandbox);
    } catch (error) {
      return { ok: false, lines: [`${command.sandbox.baseUrl}: could not list items: ${(error as Error).message}`] };
    }
    if (found.items.length === 0)
      return {
        ok: false,
        lines: [
          `${command.sandbox.baseUrl}/${found.collection}: the token sees no ${found.deleted ? 'deleted ' : ''}item to announce${found.deleted ? ' (a token scoped to deleted items, or an *Updated event)' : ''}`,
        ],
      };
    items = found.items;
  } else {
    items = Array.from({ length: command.items }, () => sampleCallbackItem(command.eventType, command.resourceBase));
  }
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
