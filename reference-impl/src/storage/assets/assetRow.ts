/** One row of `assets`, as both engines return it. */
export interface AssetRow {
  id: string;
  account_id: string;
  filename: string;
  mimetype: string;
  size: number;
  width: number | null;
  height: number | null;
  title: string | null;
  description: string | null;
  created: Date;
  modified: Date | null;
  sha256: string;
}

export const ASSET_COLUMNS =
  'id, account_id, filename, mimetype, size, width, height, title, description, created, modified, sha256';
