// Items as the suite sees them: a TRCItem as the target returned it, the workflow statuses, the
// collection paths, and the part of ctx the item helpers work with.

import { WORKFLOW_STATUSES, type WorkflowStatus } from '../../generated/constants.ts';
import type { QueryValue } from '../http/httpClient.ts';
import type { CheckContext } from '../engine/runtime/context.ts';
import type { Collection } from './collections.ts';
import { COLLECTIONS } from './collections.ts';

export type CollectionPath = Collection['path'];
export type WfStatus = WorkflowStatus;
export const WF_STATUSES: readonly WfStatus[] = [...WORKFLOW_STATUSES];
/** Every status, for a list query that must see everything the token may see. */
export const ALL_STATUSES = 'draft,readyforvalidation,approved,rejected,archived,deleted';

/** A TRCItem as the target returned it (open: unknown fields are kept). */
export type Item = Record<string, unknown> & {
  id?: string;
  trcid?: string;
  entitytype?: string;
  wfstatus?: string;
  lastupdated?: string;
};
export type Query = Record<string, QueryValue>;

export type Ctx = Pick<CheckContext, 'http' | 'tokens' | 'config' | 'runId' | 'tag' | 'cleanup' | 'note'> &
  Partial<Pick<CheckContext, 'check'>>;

export function collectionOf(path: CollectionPath): Collection {
  return COLLECTIONS.find((c) => c.path === path)!;
}

export function collectionOfEntityType(entitytype: string): Collection | undefined {
  return COLLECTIONS.find((c) => c.entitytype === entitytype);
}

export function detailPath(collection: CollectionPath, id: string): string {
  return `${collection}/${encodeURIComponent(id)}`;
}
