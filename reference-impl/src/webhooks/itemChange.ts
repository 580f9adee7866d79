import type { EntityType } from '../domain/entityRules.ts';
import type { Queryable } from '../storage/db.ts';

// @implements HOOK-006
/** One item write, as the webhook outbox sees it (HOOK-002, HOOK-006, DEC-HOOK-003). */
export interface ItemChange {
  itemId: string;
  trcid: string;
  entitytype: EntityType;
  userorganisation: string;
  action: 'UPDATED' | 'DELETED';
}

/**
 * Records a change in the outbox. Called with the item's own transaction, so the event commits
 * exactly when the item does (transactional outbox).
 */
export type ItemChangeRecorder = (tx: Queryable, change: ItemChange) => Promise<void>;

/** For apps and tests without webhooks. */
export const ignoreItemChanges: ItemChangeRecorder = async () => {};
