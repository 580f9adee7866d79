import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import type { AccountOntologies, OntologyCache } from '../dictionary/ontologyCache.ts';
import { stripCategoriesForWrite } from '../dictionary/stripCategoriesForWrite.ts';
import { withStoredCategories } from '../dictionary/subItemGroupCategories.ts';
import { entitytypeOf, type Collection } from '../domain/entityRules.ts';
import { prepareItemWrite, type PreparedItem, type WritingToken } from '../domain/itemWrite.ts';
import { isRemovalStatus } from '../domain/workflow.ts';
import { HttpError, badRequest } from '../http/HttpError.ts';
import { assertWriteGrant } from '../http/principal.ts';
import { matchesIfMatch, preconditionFailed } from '../http/preconditions.ts';
import type { Db, Queryable } from '../storage/db.ts';
import { getOrganisationOntologyVersions } from '../storage/dictionary/getOrganisationOntologyVersions.ts';
import { isUniqueViolation } from '../storage/errors.ts';
import { getItemByExternalId } from '../storage/items/getItemByExternalId.ts';
import { getItemById } from '../storage/items/getItemById.ts';
import { inJsonbOrder } from '../storage/items/jsonbOrder.ts';
import { ITEM_EXTERNAL_ID_CONSTRAINT, ITEM_TRCID_CONSTRAINT, insertItem } from '../storage/items/insertItem.ts';
import type { StoredItem, StoredRendering } from '../storage/items/itemRow.ts';
import { lockItemWrites } from '../storage/items/lockItemWrites.ts';
import { updateItem } from '../storage/items/updateItem.ts';
import type { ItemChangeRecorder } from '../webhooks/itemChange.ts';
import { canReplace, itemNotFound, type ItemScopeHolder } from './access.ts';
import { itemEtag } from './itemEtag.ts';
import { RENDERER_VERSION, storedRenderingOf } from './renderItem.ts';
import { getItemRenderingKey } from '../storage/items/getItemRenderingKey.ts';
import { isTrcidTaken } from '../storage/items/isTrcidTaken.ts';

// The one write path of items, for the HTTP routes and the feed import alike: one transaction per
// write, holding the store-wide item write lock from the read of the current item to the commit,
// with the webhook outbox event recorded in the same transaction (DEC-HOOK-003).

/**
 * Who writes: a Principal fits; a feed import passes its account's organisations, wfstatus 'all'
 * and the write grant (DEC-AUTH-020).
 */
export type ItemWriter = WritingToken & ItemScopeHolder & { readonly canWrite: boolean };

export interface ItemWriteDeps {
  recordItemChange: ItemChangeRecorder;
  /** The owner's property ontology decides what of the categories is stored. */
  ontologies: OntologyCache;
  /** For tests: the UUID inside generated trcids. */
  newUuid?: () => string;
}

/** Which stored item a write replaces. */
export type ItemMatch =
  /** The item with this id in the collection; 404 when the writer cannot see it. */
  | { id: string }
  /** The feed item with this externalId; created when there is none (feed imports). */
  | { externalId: string };

export interface WriteItemParams {
  collection: Collection;
  writer: ItemWriter;
  /** Absent: create a new item. */
  match?: ItemMatch;
  /**
   * The TRCItem as written (every field optional), or a function of the current stored item (null
   * when there is none), called under the write lock: feed updates decide there what to keep
   * (annotate its parameter: `(current: StoredItem | null) => …`).
   */
  body: unknown;
  /**
   * Feed imports only: the `externalId` (`<feed>:<partner id>`, DEC-FEED-003). Any `externalId`
   * in the body is ignored: it is read-only through the API, kept on PUT (DEC-ITEM-020).
   */
  externalId?: string;
  /**
   * The request's If-Match, for a write of an `{ id }` match: the write happens only when it holds
   * for the item as it is under the write lock (412 otherwise, DEC-ITEM-031).
   */
  ifMatch?: string;
  /** Feed imports: the time of the import, the item's `lastimportedon` (DEC-ITEM-172). */
  importedAt?: string;
}

export interface WriteItemResult {
  item: StoredItem;
  /** The rendering stored with it, made with the owner's ontologies of the write. */
  rendering: StoredRendering;
  /** The item before this write; null when it was created. */
  previous: StoredItem | null;
}

type BodyOf = (current: StoredItem | null) => unknown;

/** Raised inside the transaction when the owner turned out different from the one prepared for. */
class OwnerChanged extends Error {
  readonly organisation: string;
  constructor(organisation: string) {
    super(`owner changed to ${organisation}`);
    this.organisation = organisation;
  }
}

const MAX_ATTEMPTS = 3;

/**
 * Creates or replaces one item in one transaction and records its change for webhooks: `UPDATED`,
 * or `DELETED` when the item's new status is archived or deleted (DEC-HOOK-003).
 *
 * Throws RuleViolation for the body rules (a 400; a 403 for an organisation the writer may not
 * write, DEC-ITEM-007) and HttpError: 400 (unknown organisation), 404 (no such item for the
 * writer), 409 (trcid or externalId taken).
 */
export async function writeItem(db: Db, deps: ItemWriteDeps, params: WriteItemParams): Promise<WriteItemResult> {
  // The owner's ontologies are read through the cache, which queries the Db itself and so cannot
  // be used inside the transaction: they are fetched before it for the likely owner, and in the
  // rare case the owner then differs (a concurrent write moved the item) the write starts again.
  let owner = await likelyOwner(db, params);
  for (let attempt = 1; ; attempt++) {
    const ontologies =
      owner === undefined ? undefined : (await deps.ontologies.ontologiesForOrganisations([owner])).get(owner);
    try {
      return await db.transaction((tx) => writeInTransaction(tx, deps, params, owner, ontologies));
    } catch (error) {
      if (!(error instanceof OwnerChanged) || attempt >= MAX_ATTEMPTS) throw error;
      owner = error.organisation;
    }
  }
}

async function writeInTransaction(
  tx: Queryable,
  deps: ItemWriteDeps,
  params: WriteItemParams,
  owner: string | undefined,
  ontologies: AccountOntologies | undefined,
): Promise<WriteItemResult> {
  const entitytype = entitytypeOf(params.collection);
  await lockItemWrites(tx);
  const current = await findCurrent(tx, params);
  // After the 404 of an item the writer cannot see, before anything about the body (DEC-AUTH-020).
  assertWriteGrant(params.writer);
  if (current !== null) await assertIfMatch(tx, deps.ontologies, current, params.ifMatch);
  const body = typeof params.body === 'function' ? await (params.body as BodyOf)(current) : params.body;

  const prepared = prepareItemWrite({
    collection: params.collection,
    body: withExternalId(body, params.externalId),
    token: params.writer,
    existing: current ?? undefined,
    stripCategories: stripCategoriesForWrite,
    newUuid: deps.newUuid,
    importedAt: params.importedAt,
  });
  await assertKnownOrganisation(tx, prepared.userorganisation);
  if (prepared.userorganisation !== owner || ontologies === undefined)
    throw new OwnerChanged(prepared.userorganisation);
  const fields = withOwnerCategories(prepared, ontologies);
  // Rendered once here, with the owner's ontologies, and stored with the item for list reads; from
  // the document in the member order it will have when read back, so both renderings are one text.
  const rendering = storedRenderingOf(entitytype, inJsonbOrder(fields.doc), ontologies);

  // The unique constraint sees only equal strings; a create also looks for the trcid in NFC.
  if (current === null && (await isTrcidTaken(tx, { trcid: fields.trcid }))) throw trcidTaken(fields.trcid);
  let item: StoredItem | null;
  try {
    item =
      current === null
        ? await insertItem(tx, { ...fields, rendering, entitytype })
        : await updateItem(tx, { ...fields, rendering, id: current.id, entitytype });
  } catch (error) {
    throw conflictOf(error, fields) ?? error;
  }
  if (item === null) throw new Error(`item ${current?.id} vanished under the item write lock`);
  await deps.recordItemChange(tx, {
    itemId: item.id,
    trcid: item.trcid,
    entitytype: item.entitytype,
    userorganisation: item.userorganisation,
    action: isRemovalStatus(item.wfstatus) ? 'DELETED' : 'UPDATED',
  });
  return { item, rendering, previous: current };
}

/** The current item a write replaces, read under the write lock; null when creating. */
async function findCurrent(tx: Queryable, params: WriteItemParams): Promise<StoredItem | null> {
  const { match, collection } = params;
  if (match === undefined) return null;
  if ('id' in match) {
    const current = await getItemById(tx, { entitytype: entitytypeOf(collection), id: match.id });
    if (current === null || !canReplace(params.writer, current)) throw itemNotFound(collection, match.id);
    return current;
  }
  const current = await getItemByExternalId(tx, { externalId: match.externalId });
  if (current === null) return null;
  if (current.entitytype !== entitytypeOf(collection) || !canReplace(params.writer, current)) {
    throw new HttpError(409, {
      message: `externalId ${match.externalId} belongs to another item (a ${current.entitytype} this writer cannot replace)`,
    });
  }
  return current;
}

/**
 * 412 unless `ifMatch` holds for `current` as a detail read would send it now (DEC-ITEM-031); a
 * deleted item has no such representation (404), so only an absent If-Match writes it. Run under
 * the item write lock, so no other write comes between the check and this one.
 */
export async function assertIfMatch(
  tx: Queryable,
  ontologies: Pick<OntologyCache, 'baseKey'>,
  current: StoredItem,
  ifMatch: string | undefined,
): Promise<void> {
  if (ifMatch === undefined) return;
  const key =
    current.wfstatus !== WORKFLOW_STATUS.deleted
      ? await getItemRenderingKey(tx, { id: current.id, rendererVersion: RENDERER_VERSION })
      : null;
  const tag = key === null ? null : itemEtag(current, key, ontologies.baseKey);
  if (!matchesIfMatch(ifMatch, tag)) throw preconditionFailed('item', ifMatch);
}

/** The organisation the write will most likely store, so its ontologies can be read beforehand. */
async function likelyOwner(db: Db, params: WriteItemParams): Promise<string | undefined> {
  const sent =
    typeof params.body === 'object' && params.body !== null
      ? (params.body as { userorganisation?: unknown }).userorganisation
      : undefined;
  if (typeof sent === 'string' && sent !== '') return sent;
  const { match, writer } = params;
  if (match !== undefined) {
    const current =
      'id' in match
        ? await getItemById(db, { entitytype: entitytypeOf(params.collection), id: match.id })
        : await getItemByExternalId(db, { externalId: match.externalId });
    if (current !== null) return current.userorganisation;
  }
  const writable = (o: string) => writer.organisations === 'all' || writer.organisations.includes(o);
  return (
    writer.accountOrganisations.find(writable) ?? (writer.organisations === 'all' ? undefined : writer.organisations[0])
  );
}

/** DEC-ITEM-007: even a super admin writes only organisations the service knows (400 otherwise). */
async function assertKnownOrganisation(tx: Queryable, userorganisation: string): Promise<void> {
  const known = await getOrganisationOntologyVersions(tx, { userorganisations: [userorganisation] });
  if (!known.has(userorganisation)) {
    throw badRequest(
      '/userorganisation',
      `userorganisation ${JSON.stringify(userorganisation)} is not a known organisation (see GET /dictionary/userorganisations)`,
    );
  }
}

/** The body with the externalId the import gives, or without any (read-only through the API). */
function withExternalId(body: unknown, externalId: string | undefined): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { externalId: _ignored, ...rest } = body as Record<string, unknown>;
  return externalId === undefined ? rest : { ...rest, externalId };
}

// @implements ONTO-004
/**
 * The stored categories, of the item and of its sub-item groups, as the owner's property ontology
 * keeps them (ONTO-004, DEC-ITEM-018, DEC-ITEM-151).
 */
function withOwnerCategories(prepared: PreparedItem, ontologies: AccountOntologies): Omit<PreparedItem, 'entitytype'> {
  const { entitytype: _entitytype, ...fields } = prepared;
  return { ...fields, doc: withStoredCategories(prepared.doc, ontologies.indexes.properties) };
}

/**
 * The 409 of a trcid in use (DEC-ITEM-006): the same whether or not the writer may see the item
 * holding it, naming neither that item nor its owner.
 */
function trcidTaken(trcid: string, cause?: unknown): HttpError {
  return new HttpError(409, {
    message: `trcid ${JSON.stringify(trcid)} is already used by another item; a trcid must be unique`,
    cause,
  });
}

function conflictOf(error: unknown, fields: { trcid: string; externalId: string | null }): HttpError | undefined {
  if (isUniqueViolation(error, ITEM_TRCID_CONSTRAINT)) return trcidTaken(fields.trcid, error);
  if (isUniqueViolation(error, ITEM_EXTERNAL_ID_CONSTRAINT)) {
    return new HttpError(409, {
      message: `externalId ${JSON.stringify(fields.externalId)} is already used by another item`,
      cause: error,
    });
  }
  return undefined;
}
