import { WORKFLOW_STATUS, WORKFLOW_STATUSES } from '../../../generated/constants.ts';
import { ruleViolation } from './ruleViolation.ts';

// wfstatus, the single source of truth of an item's lifecycle, and the legacy booleans derived
// from it (interface: "States and transitions").

// @implements WF-002, WF-003
export const WF_STATUSES = WORKFLOW_STATUSES;
export type WfStatus = (typeof WF_STATUSES)[number];
// @implements WF-007
/** What storage holds: `draft` is normalised away on every save (WF-007). */
export type StoredWfStatus = Exclude<WfStatus, typeof WORKFLOW_STATUS.draft>;
export const STORED_WF_STATUSES = WF_STATUSES.filter(
  (status): status is StoredWfStatus => status !== WORKFLOW_STATUS.draft,
);

function isWfStatus(value: unknown): value is WfStatus {
  return typeof value === 'string' && (WF_STATUSES as readonly string[]).includes(value);
}

/**
 * The status to store for a save: absent (or null) and `draft` become `readyforvalidation`; every
 * other status is taken as sent, so `approved` publishes from any status and any other status
 * takes an approved item offline (WF-007, WF-008, WF-009). An unknown value is a 400.
 * @implements WF-008, WF-009
 */
export function normaliseWfstatus(value: unknown): StoredWfStatus {
  if (value === undefined || value === null || value === WORKFLOW_STATUS.draft)
    return WORKFLOW_STATUS.readyforvalidation;
  if (!isWfStatus(value)) {
    throw ruleViolation(
      '/wfstatus',
      `wfstatus must be one of ${WF_STATUSES.join(', ')} (received: ${JSON.stringify(value)})`,
    );
  }
  return value as StoredWfStatus;
}

export interface LegacyFlags {
  published: boolean;
  deleted: boolean;
  offline: boolean;
}

// @implements ITEM-017, WF-011, WF-012
/**
 * The deprecated booleans, always computed from wfstatus whatever a client wrote (WF-010…WF-013):
 * only `approved` is published; `deleted: true` means merely "not approved"; offline = !published.
 * @implements WF-010, WF-013
 */
export function legacyFlags(wfstatus: WfStatus): LegacyFlags {
  const published = wfstatus === WORKFLOW_STATUS.approved;
  return { published, deleted: !published, offline: !published };
}

/** A move to one of these is a removal for sync clients and webhooks (SYNC-003, DEC-HOOK-003). */
export function isRemovalStatus(wfstatus: WfStatus): boolean {
  return wfstatus === WORKFLOW_STATUS.archived || wfstatus === WORKFLOW_STATUS.deleted;
}
