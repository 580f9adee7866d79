import { HttpError } from '../http/HttpError.ts';
import type { OperationInput } from '../http/operationInput.ts';
import { matchesIfMatch, preconditionFailed } from '../http/preconditions.ts';
import { assertWriteGrant } from '../http/principal.ts';
import type { Db, Queryable } from '../storage/db.ts';
import type { AssetRow } from '../storage/assets/assetRow.ts';
import { getAssetById } from '../storage/assets/getAssetById.ts';
import { listAssets } from '../storage/assets/listAssets.ts';
import { updateAsset } from '../storage/assets/updateAsset.ts';
import { assetAnswer, assetJson, type AssetJson } from './assetJson.ts';
import { listAssetsParams, type AssetListQuery } from './listParams.ts';

// The asset records behind /assets: list, look up and edit (uploads: uploadAsset.ts).

const EDITABLE = new Set(['filename', 'title', 'description']);
const READ_ONLY = new Set(['id', 'mimetype', 'size', 'width', 'height', 'url', 'created', 'modified']);

export function noSuchAsset(id: string): HttpError {
  return new HttpError(404, { message: `No asset with id ${id}` });
}

/** One page of the assets of `accountId`, as GET /assets answers it. */
export async function listAccountAssets(
  db: Queryable,
  baseUrl: string,
  accountId: string,
  query: AssetListQuery,
): Promise<{ size: number; page: number; hits: number; results: AssetJson[] }> {
  const params = listAssetsParams(accountId, query);
  const { hits, rows } = await listAssets(db, params);
  return { size: params.size, page: params.page, hits, results: rows.map((row) => assetJson(row, baseUrl)) };
}

/** The asset `id` of any account (DEC-ASSET-004); null when there is none. */
export function findAsset(db: Queryable, id: string): Promise<AssetRow | null> {
  return getAssetById(db, { id });
}

/**
 * PUT /assets/{id}: the editable fields of an asset of the caller's account replaced; 404 when it
 * has none such; 403 without the write grant (DEC-AUTH-020); 412 when `ifMatch` does not hold
 * for the asset as it is (DEC-ASSET-011), checked with its row locked, so no other edit comes
 * between.
 */
export async function editAsset(
  deps: { db: Db; now: () => number; baseUrl: string },
  caller: { accountId: string; canWrite: boolean },
  id: string,
  body: OperationInput<'updateAsset'>['body'],
  ifMatch?: string,
): Promise<AssetRow> {
  const fields = editableFields(body);
  const { accountId } = caller;
  return deps.db.transaction(async (tx) => {
    const current = await getAssetById(tx, { id, accountId, forUpdate: true });
    if (current === null) throw noSuchAsset(id);
    assertWriteGrant(caller);
    if (!matchesIfMatch(ifMatch, assetAnswer(current, deps.baseUrl).etag)) throw preconditionFailed('asset', ifMatch!);
    const row = await updateAsset(tx, { id, accountId, ...fields, modified: new Date(deps.now()) });
    if (row === null) throw noSuchAsset(id);
    return row;
  });
}

/**
 * DEC-ASSET-002/007: `filename` absent is kept, `title` and `description` absent are removed; the
 * read-only fields a read of the asset shows are ignored; anything else is a 400 naming it.
 */
function editableFields(body: OperationInput<'updateAsset'>['body']): {
  filename: string | undefined;
  title: string | null;
  description: string | null;
} {
  const unknown = Object.keys(body).filter((key) => !EDITABLE.has(key) && !READ_ONLY.has(key));
  if (unknown.length > 0) {
    throw new HttpError(400, {
      message: `Request body is invalid: unknown field ${unknown.join(', ')} (editable: filename, title, description)`,
      details: unknown.map((key) => ({ pointer: `/${key}`, message: `unknown field ${key}` })),
    });
  }
  return { filename: body.filename, title: body.title ?? null, description: body.description ?? null };
}
