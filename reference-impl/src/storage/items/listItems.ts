import type { EntityType } from '../../domain/entityRules.ts';
import type { WfStatus } from '../../domain/workflow.ts';
import type { Queryable, RowStreamer } from '../db.ts';
import { filterClauses, type ItemFilters } from './listFilters.ts';
import { ITEM_COLUMNS, ITEM_SERVER_COLUMNS, isUuid, type StoredItem } from './itemRow.ts';
import { currentRenderingKeySql } from './renderingKey.ts';

// @implements SORT-001
/** The sortable root fields (DEC-LIST-003), with the column each sorts on. */
const ITEM_SORT_COLUMNS = {
  lastupdated: 'lastupdated',
  creationdate: 'creationdate',
  title: 'title',
  trcid: 'trcid',
  id: 'id',
  slug: 'slug',
  wfstatus: 'wfstatus',
  entitytype: 'entitytype',
  userorganisation: 'userorganisation',
  externalId: 'external_id',
} as const;
export type ItemSortField = keyof typeof ITEM_SORT_COLUMNS;

export interface ItemScope {
  /** Organisations whose items the caller may see; 'all' for super admins. */
  userorganisations: readonly string[] | 'all';
  /** Statuses the caller may see; 'all' for super admins. */
  wfstatus: readonly string[] | 'all';
}

export interface ListItemsParams {
  entitytype: EntityType;
  /** Always applied: nothing outside the scope is returned, whatever the filters ask (SCOPE-001). */
  scope: ItemScope;
  /** Requested statuses; absent: every status but `deleted` (DEC-LIST-006). Intersected with the scope. */
  wfstatus?: readonly WfStatus[];
  /** true: only `approved`; false: every other status (DEC-LIST-007). */
  published?: boolean;
  // @implements FILTER-001
  /** Inclusive lower bound, `lastupdated >= value` (FILTER-001). */
  lastupdatedFrom?: Date;
  trcid?: string;
  /** true: without `wfstatus`, `deleted` items are listed too (DEC-LIST-030). */
  includeDeleted?: boolean;
  /** The operator's filters (DEC-LIST-021…029), each narrowing the result. */
  filters?: ItemFilters;
  // @implements SORT-002
  /** Default `lastupdated` (SORT-002). */
  sortField?: ItemSortField;
  // @implements SORT-003
  /** Default DESC (SORT-003). */
  sortOrder?: 'ASC' | 'DESC';
  limit: number;
  offset?: number;
}

/**
 * A listed item: its stored rendering when that is current for `rendererVersion` (then the
 * document is not read at all), else its document, to be rendered live (migration 007).
 */
export type ListedItem =
  (Omit<StoredItem, 'doc'> & { doc: null; renderedBody: string }) | (StoredItem & { renderedBody: null });

// @implements PAGE-001, PAGE-003, PAGE-004
/**
 * One page of a collection, filtered and sorted; every order ends with `id` ascending, so pages
 * of one result never overlap or skip rows on ties (DEC-LIST-003).
 */
export async function listItems(db: Queryable, params: ListItemsParams): Promise<StoredItem[]> {
  const { text, values } = listQuery(params);
  const { rows } = await db.query<StoredItem>(`SELECT ${ITEM_COLUMNS} FROM items ${text}`, values);
  return rows;
}

/**
 * listItems, with each item's stored rendering instead of its document where that is current; the
 * rows in batches as they arrive, so that a page can be written while the rest are on their way.
 */
export function streamRenderedItems(
  db: RowStreamer,
  params: ListItemsParams & { rendererVersion: number },
): AsyncIterable<readonly ListedItem[]> {
  const { text, values, order } = listQuery(params);
  const version = `$${values.push(params.rendererVersion)}`;
  return db.streamRows<ListedItem>(`${selectRendered(version, `FROM items ${text}`)} ORDER BY ${order}`, values);
}

/**
 * getItemById, with the item's stored rendering instead of its document when that is current, and
 * then the rendering's key (an item's ETag holds it, DEC-ITEM-031).
 */
export async function getRenderedItemById(
  db: Queryable,
  params: { entitytype: EntityType; id: string; rendererVersion: number },
): Promise<(ListedItem & { renderedKey: string | null }) | null> {
  if (!isUuid(params.id)) return null;
  const { rows } = await db.query<ListedItem & { renderedKey: string | null }>(
    selectRendered('$3', 'FROM items WHERE items.id = $1 AND items.entitytype = $2', {
      key: true,
    }),
    [params.id, params.entitytype, params.rendererVersion],
  );
  return rows[0] ?? null;
}

/**
 * SQL: the server columns of the rows `from` selects, with the stored rendering when its key is
 * the one in force (the document is then not read at all), else the document. `key`: the stored
 * rendering's key too (not for lists: a page would carry it for every row).
 */
function selectRendered(versionParam: string, from: string, options: { key?: boolean } = {}): string {
  const key = options.key === true ? `, CASE WHEN items.fresh THEN items.rendered_key END AS "renderedKey"` : '';
  return `SELECT ${ITEM_SERVER_COLUMNS},
                 CASE WHEN items.fresh THEN NULL ELSE items.doc END AS doc,
                 CASE WHEN items.fresh THEN items.rendered_body END AS "renderedBody"${key}
            FROM (SELECT items.*, items.rendered_body IS NOT NULL AND items.rendered_key = ${currentRenderingKeySql(versionParam)} AS fresh
                  ${from}) items`;
}

/** The WHERE, ORDER BY, LIMIT and OFFSET of a list, with their values. */
function listQuery(params: ListItemsParams): { text: string; values: unknown[]; order: string } {
  const { limit, offset = 0, sortField = 'lastupdated', sortOrder = 'DESC' } = params;
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw new RangeError(`listItems: limit must be a whole number >= 0 (received: ${limit})`);
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw new RangeError(`listItems: offset must be a whole number >= 0 (received: ${offset})`);
  if (!Object.hasOwn(ITEM_SORT_COLUMNS, sortField)) throw new RangeError(`listItems: unknown sortField ${sortField}`);
  if (sortOrder !== 'ASC' && sortOrder !== 'DESC')
    throw new RangeError(`listItems: sortOrder must be ASC or DESC (received: ${String(sortOrder)})`);

  const values: unknown[] = [];
  const param = (value: unknown): string => `$${values.push(value)}`;
  const where = [`entitytype = ${param(params.entitytype)}`];
  if (params.scope.userorganisations !== 'all')
    where.push(`userorganisation = ANY(${param([...params.scope.userorganisations])}::text[])`);
  if (params.scope.wfstatus !== 'all') where.push(`wfstatus = ANY(${param([...params.scope.wfstatus])}::text[])`);
  if (params.wfstatus === undefined) {
    if (params.includeDeleted !== true) where.push(`wfstatus <> 'deleted'`);
  } else where.push(`wfstatus = ANY(${param([...params.wfstatus])}::text[])`);
  if (params.published !== undefined) where.push(params.published ? `wfstatus = 'approved'` : `wfstatus <> 'approved'`);
  if (params.lastupdatedFrom !== undefined) where.push(`lastupdated >= ${param(params.lastupdatedFrom)}`);
  if (params.trcid !== undefined) where.push(`trcid = ${param(params.trcid)}`);
  if (params.filters !== undefined) where.push(...filterClauses(params.filters, param));

  const column = ITEM_SORT_COLUMNS[sortField];
  const order = column === 'id' ? `id ${sortOrder}` : `${column} ${sortOrder}, id ASC`;
  return {
    text: `WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${param(limit)} OFFSET ${param(offset)}`,
    values,
    order,
  };
}
