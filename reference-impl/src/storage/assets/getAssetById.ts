import type { Queryable } from '../db.ts';
import { ASSET_COLUMNS, type AssetRow } from './assetRow.ts';

/**
 * The asset `id`, of any account unless `accountId` is given (DEC-ASSET-004); null if none.
 * `forUpdate`: row-locked until the transaction ends.
 */
export async function getAssetById(
  db: Queryable,
  params: { id: string; accountId?: string; forUpdate?: boolean },
): Promise<AssetRow | null> {
  const lock = params.forUpdate === true ? ' FOR UPDATE' : '';
  const { rows } =
    params.accountId === undefined
      ? await db.query<AssetRow>(`SELECT ${ASSET_COLUMNS} FROM assets WHERE id = $1${lock}`, [params.id])
      : await db.query<AssetRow>(`SELECT ${ASSET_COLUMNS} FROM assets WHERE id = $1 AND account_id = $2${lock}`, [
          params.id,
          params.accountId,
        ]);
  return rows[0] ?? null;
}
