import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../http/HttpError.ts';
import type { Queryable } from '../storage/db.ts';
import type { AssetRow } from '../storage/assets/assetRow.ts';
import { insertAsset } from '../storage/assets/insertAsset.ts';
import type { AssetFileStore } from './fileStore.ts';
import { readImageSize } from './imageInfo.ts';
import { receiveUpload } from './receiveUpload.ts';
import { isImage } from './sniff.ts';

export interface UploadDeps {
  db: Queryable;
  store: AssetFileStore;
  maxBytes: number;
  now: () => number;
}

/**
 * Receives an upload and records it as an asset of `accountId` (DEC-ASSET-001, DEC-ASSET-004). The
 * file is committed before its row is written and removed again if the row fails, so no row ever
 * points at a missing file. Never produces a webhook (HOOK-009).
 */
export async function uploadAsset(deps: UploadDeps, req: IncomingMessage, accountId: string): Promise<AssetRow> {
  const upload = await receiveUpload(req, { maxBytes: deps.maxBytes, store: deps.store });
  const id = randomUUID();
  try {
    await upload.staged.commit(id);
  } finally {
    await upload.staged.discard();
  }
  try {
    let size: { width: number; height: number } | undefined;
    if (isImage(upload.mimetype)) {
      const file = await deps.store.open(id);
      size = file && (await readImageSize(file.sharpInput()));
      // Image magic bytes followed by something no decoder reads: not an accepted image.
      if (size === undefined)
        throw new HttpError(415, { message: `file starts like ${upload.mimetype} but is not a readable image` });
    }
    return await insertAsset(deps.db, {
      id,
      account_id: accountId,
      filename: upload.filename,
      mimetype: upload.mimetype,
      size: upload.size,
      width: size?.width ?? null,
      height: size?.height ?? null,
      title: upload.title ?? null,
      description: upload.description ?? null,
      created: new Date(deps.now()),
      sha256: upload.sha256,
    });
  } catch (error) {
    await deps.store.remove(id);
    throw error;
  }
}
