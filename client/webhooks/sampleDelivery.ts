// Deliveries like the service's, for testing a receiver: CallbackBodies with fresh ids, signed as
// the interface says (HOOK-011, HOOK-013). Used by `content-webhooks trigger`, the receiver
// certification (content-conformance receiver) and an integrator's own tests.

import { randomUUID } from 'node:crypto';
import {
  COLLECTIONS,
  ENTITY_TYPES,
  RESOURCE_TYPES,
  WEBHOOK_EVENT_NAMES,
  WEBHOOK_HEADERS,
} from '../../generated/constants.ts';
import type { EntityType } from '../../generated/constants.ts';
import { signWebhook } from './verify.ts';

export interface SampleItem {
  id: string;
  trcid: string;
  resourceUri: string;
  resourceType: string;
  actionType: 'UPDATED' | 'DELETED';
}

/** The ten event types (HOOK-005), each with the entity type it is about. */
export const WEBHOOK_EVENT_TYPES: readonly {
  name: string;
  entitytype: EntityType;
  actionType: SampleItem['actionType'];
}[] = ENTITY_TYPES.flatMap((entitytype) => [
  { name: `${WEBHOOK_EVENT_NAMES[entitytype]}Updated`, entitytype, actionType: 'UPDATED' as const },
  { name: `${WEBHOOK_EVENT_NAMES[entitytype]}Deleted`, entitytype, actionType: 'DELETED' as const },
]);

const COLLECTION = Object.fromEntries(Object.entries(COLLECTIONS).map(([path, type]) => [type, path])) as Record<
  EntityType,
  string
>;

/** The event type of that name, with its entity type and action; RangeError for an unknown name. */
export function webhookEventType(eventType: string): (typeof WEBHOOK_EVENT_TYPES)[number] {
  const type = WEBHOOK_EVENT_TYPES.find((t) => t.name === eventType);
  if (!type)
    throw new RangeError(
      `unknown event type ${eventType}; known: ${WEBHOOK_EVENT_TYPES.map((t) => t.name).join(', ')}`,
    );
  return type;
}

/** The collection (`events`, `locations`, …) an event type is about. */
export function collectionOf(eventType: string): string {
  return COLLECTION[webhookEventType(eventType).entitytype];
}

/** The items[] entry the service sends about one item (`id` is its internal id). */
export function callbackItemFor(
  eventType: string,
  item: { id: string; trcid: string },
  baseUrl = 'https://content.example.com/api',
): SampleItem {
  const type = webhookEventType(eventType);
  return {
    id: `${item.id}_${type.name}`,
    trcid: item.trcid,
    resourceUri: `${baseUrl}/${COLLECTION[type.entitytype]}/${encodeURIComponent(item.id)}`,
    resourceType: RESOURCE_TYPES[type.entitytype],
    actionType: type.actionType,
  };
}

/** One items[] entry of an event type, with fresh ids. */
export function sampleCallbackItem(eventType: string, baseUrl?: string): SampleItem {
  return callbackItemFor(eventType, { id: randomUUID(), trcid: `trc-${randomUUID()}` }, baseUrl);
}

/** The raw body the service would send: compact JSON of a CallbackBody. */
export function sampleCallbackBody(items: readonly SampleItem[]): string {
  return JSON.stringify({ items });
}

export interface Delivery {
  body: string;
  headers: Record<string, string>;
  deliveryId: string;
  timestamp: number;
}

export interface SignOptions {
  /** Epoch seconds; default now. */
  timestamp?: number;
  deliveryId?: string;
  /** Sign these bytes instead of the body (forgeries). */
  signedBody?: string;
  /** Replace the signature header value, or drop it (null). */
  signature?: string | null;
}

/** A delivery as the service sends it: Content-Type, the three X-Service headers. */
export function signedDelivery(secret: string, body: string, options: SignOptions = {}): Delivery {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const deliveryId = options.deliveryId ?? randomUUID();
  const signature =
    options.signature === undefined ? signWebhook(secret, timestamp, options.signedBody ?? body) : options.signature;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'content-conformance-receiver/1',
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.delivery]: deliveryId,
  };
  if (signature !== null) headers[WEBHOOK_HEADERS.signature] = signature;
  return { body, headers, deliveryId, timestamp };
}
