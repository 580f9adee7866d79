import type { AssetRow } from '../storage/assets/assetRow.ts';

/** What serving a file needs. None of it changes after upload: PUT edits only the metadata around it. */
export type AssetFileInfo = Pick<AssetRow, 'id' | 'mimetype' | 'width' | 'height' | 'sha256'>;

/**
 * Remembers the file facts of recently served assets, so a cached variant or a 304 costs no
 * database read. Safe because the facts are immutable; unknown ids are never remembered, so an
 * asset uploaded a moment later is found.
 */
export function createFileInfoCache(
  load: (id: string) => Promise<AssetFileInfo | null>,
  maxEntries = 10_000,
): (id: string) => Promise<AssetFileInfo | null> {
  const entries = new Map<string, AssetFileInfo>();
  return async function fileInfo(id) {
    const known = entries.get(id);
    if (known !== undefined) {
      entries.delete(id);
      entries.set(id, known);
      return known;
    }
    const row = await load(id);
    if (row === null) return null;
    const info: AssetFileInfo = {
      id: row.id,
      mimetype: row.mimetype,
      width: row.width,
      height: row.height,
      sha256: row.sha256,
    };
    entries.set(id, info);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    return info;
  };
}
