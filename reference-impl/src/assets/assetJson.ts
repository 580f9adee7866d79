import { createHash } from 'node:crypto';
import type { components, Readable } from '../../../generated/types.ts';
import { formatTimestamp } from '../domain/timestamps.ts';
import type { AssetRow } from '../storage/assets/assetRow.ts';

/** The Asset of the spec as answered (DEC-ASSET-002): fields without a value are absent, not null. */
export type AssetJson = Readable<components['schemas']['Asset']>;

// @implements ASSET-003
/** `{base_url}/assets/<id>/<filename>` (ASSET-003). */
export function assetUrl(baseUrl: string, row: Pick<AssetRow, 'id' | 'filename'>): string {
  return `${baseUrl}/assets/${row.id}/${encodeURIComponent(row.filename)}`;
}

export function assetJson(row: AssetRow, baseUrl: string): AssetJson {
  const json: AssetJson = {
    id: row.id,
    filename: row.filename,
    mimetype: row.mimetype,
    size: Number(row.size),
    url: assetUrl(baseUrl, row),
    created: formatTimestamp(row.created),
  };
  if (row.width !== null) json.width = row.width;
  if (row.height !== null) json.height = row.height;
  if (row.title !== null) json.title = row.title;
  if (row.description !== null) json.description = row.description;
  if (row.modified !== null) json.modified = formatTimestamp(row.modified);
  return json;
}

/**
 * The asset's JSON as sent, with its strong ETag (DEC-ASSET-011): a digest of those very bytes,
 * so the tag changes exactly when they do.
 */
export function assetAnswer(row: AssetRow, baseUrl: string): { json: string; etag: string } {
  const json = JSON.stringify(assetJson(row, baseUrl));
  return { json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
}
