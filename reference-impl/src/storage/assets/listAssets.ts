import type { Queryable } from '../db.ts';
import { ASSET_COLUMNS, type AssetRow } from './assetRow.ts';

export type AssetSortKey = 'created' | 'filename' | 'size' | 'modified';

export interface ListAssetsParams {
  accountId: string;
  // @implements ASSET-008, ASSET-010
  /** Inclusive lower bound on `modified`, else `created` (ASSET-008, ASSET-010). */
  changedFrom?: Date;
  sortKey: AssetSortKey;
  sortOrder: 'ASC' | 'DESC';
  limit: number;
  offset: number;
}

// @implements ASSET-012, ASSET-013
// Whitelisted ORDER BY clauses. Assets without `modified` are the least recently changed
// (ASSET-012): first ascending, last descending. `id` ascending ends every order (ASSET-013).
const ORDER_BY: Record<AssetSortKey, Record<'ASC' | 'DESC', string>> = {
  created: { ASC: 'created ASC, id ASC', DESC: 'created DESC, id ASC' },
  filename: { ASC: 'filename ASC, id ASC', DESC: 'filename DESC, id ASC' },
  size: { ASC: 'size ASC, id ASC', DESC: 'size DESC, id ASC' },
  modified: { ASC: 'modified ASC NULLS FIRST, id ASC', DESC: 'modified DESC NULLS LAST, id ASC' },
};

/** One page of an account's assets and the number matching the filter over all pages. */
export async function listAssets(db: Queryable, params: ListAssetsParams): Promise<{ hits: number; rows: AssetRow[] }> {
  const order = ORDER_BY[params.sortKey]?.[params.sortOrder];
  if (order === undefined) throw new RangeError(`listAssets: unknown order ${params.sortKey} ${params.sortOrder}`);
  if (!Number.isSafeInteger(params.limit) || params.limit < 1)
    throw new RangeError(`listAssets: limit must be >= 1 (received: ${params.limit})`);
  if (!Number.isSafeInteger(params.offset) || params.offset < 0)
    throw new RangeError(`listAssets: offset must be >= 0 (received: ${params.offset})`);

  const where =
    params.changedFrom === undefined ? 'account_id = $1' : 'account_id = $1 AND COALESCE(modified, created) >= $2';
  const filter = params.changedFrom === undefined ? [params.accountId] : [params.accountId, params.changedFrom];
  const { rows: counted } = await db.query<{ hits: number | string }>(
    `SELECT count(*) AS hits FROM assets WHERE ${where}`,
    filter,
  );
  const hits = Number(counted[0]?.hits ?? 0);
  if (params.offset >= hits) return { hits, rows: [] };
  const { rows } = await db.query<AssetRow>(
    `SELECT ${ASSET_COLUMNS} FROM assets WHERE ${where}
      ORDER BY ${order}
      LIMIT $${filter.length + 1} OFFSET $${filter.length + 2}`,
    [...filter, params.limit, params.offset],
  );
  return { hits, rows };
}
