// @implements HOOK-001, HOOK-005
// Queued changes → deliveries (HOOK-001, HOOK-005..007, DEC-HOOK-004): per token, up to 100
// items, each item's latest change only, serialised ONCE into the bytes every attempt sends.
import { randomUUID } from 'node:crypto';
import { WEBHOOK_MAX_ITEMS } from '../../../generated/constants.ts';
import { RESOURCE_TYPES, WEBHOOK_EVENT_NAMES, collectionOf, isEntityType } from '../domain/entityRules.ts';
import type { Db, Queryable } from '../storage/db.ts';
import { deleteQueuedChanges } from '../storage/webhooks/deleteQueuedChanges.ts';
import { insertDelivery } from '../storage/webhooks/insertDelivery.ts';
import { listTokensWithQueuedChanges } from '../storage/webhooks/listTokensWithQueuedChanges.ts';
import { takeQueuedChanges, type QueuedChange } from '../storage/webhooks/takeQueuedChanges.ts';

const MAX_ITEMS_PER_DELIVERY = WEBHOOK_MAX_ITEMS;
// Rows read per batch: enough to fill 100 items even when some items changed many times.
const ROWS_PER_BATCH = 1000;

export interface CallbackItem {
  id: string;
  trcid: string;
  resourceUri: string;
  resourceType: string;
  actionType: 'UPDATED' | 'DELETED';
}

export interface Batch {
  items: CallbackItem[];
  /** Outbox rows this batch stands for (collapsed ones included). */
  consumedIds: number[];
}

/**
 * The first `maxItems` distinct items of `changes` (in change order), each as its latest change.
 * Rows of items beyond the cap stay queued for the next delivery.
 */
export function collapseChanges(
  changes: readonly QueuedChange[],
  options: { publicBaseUrl: string; maxItems?: number },
): Batch {
  const maxItems = options.maxItems ?? MAX_ITEMS_PER_DELIVERY;
  const latest = new Map<string, QueuedChange>();
  const consumedIds: number[] = [];
  for (const change of changes) {
    if (!latest.has(change.itemId) && latest.size >= maxItems) continue;
    latest.delete(change.itemId); // re-insert: the map's order is the order of latest changes
    latest.set(change.itemId, change);
    consumedIds.push(change.id);
  }
  return { items: [...latest.values()].map((c) => callbackItem(c, options.publicBaseUrl)), consumedIds };
}

// @implements HOOK-003
/** One entry of items[]: `<item id>_<EventType>` and the item's detail URL. */
export function callbackItem(
  change: Pick<QueuedChange, 'itemId' | 'trcid' | 'entitytype' | 'action'>,
  publicBaseUrl: string,
): CallbackItem {
  if (!isEntityType(change.entitytype))
    throw new Error(`outbox row of item ${change.itemId} has unknown entitytype ${change.entitytype}`);
  const eventType = `${WEBHOOK_EVENT_NAMES[change.entitytype]}${change.action === 'DELETED' ? 'Deleted' : 'Updated'}`;
  return {
    id: `${change.itemId}_${eventType}`,
    trcid: change.trcid,
    resourceUri: `${publicBaseUrl}/${collectionOf(change.entitytype)}/${change.itemId}`,
    resourceType: RESOURCE_TYPES[change.entitytype],
    actionType: change.action,
  };
}

/** The CallbackBody bytes. */
export function serialiseCallbackBody(items: readonly CallbackItem[]): Buffer {
  return Buffer.from(JSON.stringify({ items }), 'utf8');
}

export interface MakeDeliveryParams {
  tokenId: string;
  publicBaseUrl: string;
  now: () => number;
  /** Claim the new delivery at once (the worker that makes it sends it). */
  lease?: { until: Date; claimId: string };
}

/**
 * Inside `tx`: turns the token's oldest queued changes into one delivery. Null when nothing is
 * queued or the token already has a pending delivery (made by another instance meanwhile).
 */
export async function makeDelivery(
  tx: Queryable,
  params: MakeDeliveryParams,
): Promise<{ id: string; body: Buffer; itemCount: number } | null> {
  const changes = await takeQueuedChanges(tx, { tokenId: params.tokenId, limit: ROWS_PER_BATCH });
  if (changes.length === 0) return null;
  const batch = collapseChanges(changes, { publicBaseUrl: params.publicBaseUrl });
  const delivery = { id: randomUUID(), body: serialiseCallbackBody(batch.items), itemCount: batch.items.length };
  const inserted = await insertDelivery(tx, {
    ...delivery,
    tokenId: params.tokenId,
    createdAt: new Date(params.now()),
    ...(params.lease ? { lease: params.lease } : {}),
  });
  if (!inserted) return null;
  await deleteQueuedChanges(tx, { ids: batch.consumedIds });
  return delivery;
}

export interface MakeDeliveriesOptions {
  publicBaseUrl: string;
  now: () => number;
  /** Tokens looked at per call. */
  tokenLimit?: number;
}

/**
 * Turns queued changes into deliveries for tokens without a pending one. Each token in its own
 * short transaction; safe to run on several instances at once. Returns the deliveries made.
 */
export async function makeDeliveries(db: Db, options: MakeDeliveriesOptions): Promise<number> {
  let made = 0;
  for (const token of await listTokensWithQueuedChanges(db, { limit: options.tokenLimit ?? 50 })) {
    if (!token.hasCallback) {
      // Its webhook was removed while a write was queuing for it.
      await deleteQueuedChanges(db, { tokenId: token.tokenId });
      continue;
    }
    const created = await db.transaction((tx) =>
      makeDelivery(tx, { tokenId: token.tokenId, publicBaseUrl: options.publicBaseUrl, now: options.now }),
    );
    if (created !== null) made += 1;
  }
  return made;
}
