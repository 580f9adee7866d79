// @implements HOOK-002, HOOK-008, HOOK-009
// The transactional outbox (HOOK-002, HOOK-008): every item write queues its change, in the
// write's own transaction, for each token whose webhook should hear of it. Assets never call
// this (HOOK-009).
import { insertOutboxEvents } from '../storage/webhooks/insertOutboxEvents.ts';
import type { ItemChangeRecorder } from './itemChange.ts';

export interface OutboxOptions {
  /** Called after a change was queued for at least one token: wakes the local worker. */
  onQueued?: () => void;
}

export function createOutboxRecorder(options: OutboxOptions = {}): ItemChangeRecorder {
  return async function recordItemChange(tx, change) {
    const queued = await insertOutboxEvents(tx, {
      itemId: change.itemId,
      trcid: change.trcid,
      entitytype: change.entitytype,
      userorganisation: change.userorganisation,
      action: change.action,
    });
    // Before the commit, so the worker may look too early; it keeps looking briefly (worker.ts).
    if (queued > 0) options.onQueued?.();
  };
}
