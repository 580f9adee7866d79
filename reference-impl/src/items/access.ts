import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { HttpError } from '../http/HttpError.ts';
import type { Collection } from '../domain/entityRules.ts';
import type { StoredWfStatus } from '../domain/workflow.ts';

// Who may see and change which stored item (AUTH-004/005, DEC-ITEM-004, DEC-ERR-002). Items outside
// the caller's scope answer 404, never 403: their existence must not leak.

/** The scope of a caller: a Principal fits, and so does a feed import acting for its account. */
export interface ItemScopeHolder {
  /** Organisations whose items the caller sees and writes; 'all' for super admins. */
  readonly organisations: readonly string[] | 'all';
  /** Statuses the caller sees; 'all' for super admins. */
  readonly wfstatus: readonly string[] | 'all';
}

interface Owned {
  userorganisation: string;
  wfstatus: StoredWfStatus;
}

function inScope(scope: ItemScopeHolder, item: Owned): boolean {
  const organisationOk = scope.organisations === 'all' || scope.organisations.includes(item.userorganisation);
  const statusOk = scope.wfstatus === 'all' || scope.wfstatus.includes(item.wfstatus);
  return organisationOk && statusOk;
}

// @implements WF-001, WF-005, HOOK-004
/** A detail read: in scope and not soft-deleted, whoever asks (DEC-ITEM-004). */
export function canRead(scope: ItemScopeHolder, item: Owned): boolean {
  return item.wfstatus !== WORKFLOW_STATUS.deleted && inScope(scope, item);
}

/** A PUT: in scope; a deleted item only for callers scoped to see deleted items, who may restore it (DEC-ITEM-004). */
export function canReplace(scope: ItemScopeHolder, item: Owned): boolean {
  return inScope(scope, item);
}

/** A DELETE: in scope and not deleted already (deleting a deleted item is a 404). */
export function canDelete(scope: ItemScopeHolder, item: Owned): boolean {
  return canRead(scope, item);
}

const NOUNS: Readonly<Record<Collection, string>> = {
  events: 'event',
  locations: 'location',
  venues: 'venue',
  eventgroups: 'event group',
  routes: 'route',
};

export function itemNotFound(collection: Collection, id: string): HttpError {
  return new HttpError(404, { message: `No ${NOUNS[collection]} with id ${id}` });
}
