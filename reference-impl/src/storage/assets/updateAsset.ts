import type { Queryable } from '../db.ts';
import { ASSET_COLUMNS, type AssetRow } from './assetRow.ts';

export interface UpdateAssetParams {
  id: string;
  accountId: string;
  /** Undefined keeps the current file name. */
  filename: string | undefined;
  title: string | null;
  description: string | null;
  modified: Date;
}

/** Replaces an asset's metadata and sets `modified` (DEC-ASSET-002); null when the account has no such asset. */
export async function updateAsset(db: Queryable, params: UpdateAssetParams): Promise<AssetRow | null> {
  const { rows } = await db.query<AssetRow>(
    `UPDATE assets
        SET filename = COALESCE($3, filename), title = $4, description = $5, modified = $6
      WHERE id = $1 AND account_id = $2
      RETURNING ${ASSET_COLUMNS}`,
    [params.id, params.accountId, params.filename ?? null, params.title, params.description, params.modified],
  );
  return rows[0] ?? null;
}
