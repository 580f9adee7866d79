import type { Queryable } from '../db.ts';
import { ASSET_COLUMNS, type AssetRow } from './assetRow.ts';

export type InsertAssetParams = Omit<AssetRow, 'modified'>;

// @implements ASSET-001
/** Records an uploaded asset; `modified` stays NULL until its first update (ASSET-001). */
export async function insertAsset(db: Queryable, params: InsertAssetParams): Promise<AssetRow> {
  const { rows } = await db.query<AssetRow>(
    `INSERT INTO assets (id, account_id, filename, mimetype, size, width, height, title, description, created, sha256)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     RETURNING ${ASSET_COLUMNS}`,
    [
      params.id,
      params.account_id,
      params.filename,
      params.mimetype,
      params.size,
      params.width,
      params.height,
      params.title,
      params.description,
      params.created,
      params.sha256,
    ],
  );
  return rows[0]!;
}
