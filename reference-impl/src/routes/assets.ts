import { pipeline, type Readable } from 'node:stream';
import { Router, type Request, type Response } from 'express';
import { assetAnswer, assetUrl } from '../assets/assetJson.ts';
import { editAsset, findAsset, listAccountAssets, noSuchAsset } from '../assets/assetRecords.ts';
import { fileEtag } from '../assets/fileEtag.ts';
import { createFileInfoCache, type AssetFileInfo } from '../assets/fileInfoCache.ts';
import { fileExtension, isImage } from '../assets/sniff.ts';
import { uploadAsset } from '../assets/uploadAsset.ts';
import { variantSize } from '../assets/variantSize.ts';
import { MiB, SECOND } from '../config.ts';
import { discardBodyOnError } from '../http/discardUnreadBody.ts';
import { matchesIfNoneMatch } from '../http/preconditions.ts';
import { principalOf, requireWriteGrant } from '../http/principal.ts';
import { sendJson } from '../http/sendJson.ts';
import { validated } from '../http/validateRequest.ts';
import type { RouteMiddleware } from './routeMiddleware.ts';
import type { Services } from '../services.ts';

// DEC-ASSET-008. Private: the file needs a token, and a shared cache keeping it would hand it to
// callers without one. The bytes of an asset never change, so a day is safe.
const CACHE_CONTROL = 'private, max-age=86400';
// Files are untrusted: a PDF can carry JavaScript. Opened from this origin, nothing in them may
// run (CSP sandbox) and none is taken for another type (nosniff); PDFs are downloaded, not shown.
const FILE_HEADERS = {
  'Cache-Control': CACHE_CONTROL,
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
};
/** Types a browser shows as passive media; anything else (PDF) is an attachment. */
const INLINE_TYPES = /^(image|video)\//;
// What is read and dropped of a refused upload's body after the answer, so that the client reads
// the answer instead of a reset; beyond it the connection is closed.
const REFUSED_UPLOAD_DISCARD = { maxBytes: 4 * MiB, maxMs: 5 * SECOND, lingerMs: 1 * SECOND };

/** What the assetRoutes are built from. */
export type AssetRouteDeps = Pick<Services, 'config' | 'db' | 'now' | 'assetStore' | 'resizer'> &
  Pick<RouteMiddleware, 'auth' | 'validate'>;

/**
 * GET/POST /assets, PUT /assets/{id}, GET /assets/{id}/{filename} (ASSET-001..016, DEC-ASSET-*).
 * Not rate limited (RATE-005); assets never produce a webhook (HOOK-009).
 * @implements RATE-005
 */
export function assetRoutes(context: AssetRouteDeps): Router {
  const router = Router();
  const { assetStore: store, resizer } = context;
  const baseUrl = context.config.publicBaseUrl;
  const fileInfo = createFileInfoCache((id) => findAsset(context.db, id));

  // @implements ASSET-002, ASSET-004
  router.get('/assets', context.auth, context.validate('listAssets'), async (_req, res) => {
    const { query } = validated(res, 'listAssets');
    res.json(await listAccountAssets(context.db, baseUrl, principalOf(res).accountId, query));
  });

  // @implements ASSET-006, ASSET-015
  router.post(
    '/assets',
    context.auth,
    requireWriteGrant(),
    context.validate('uploadAsset'),
    async (req: Request, res: Response) => {
      const deps = { db: context.db, store, maxBytes: context.config.assetMaxBytes, now: context.now };
      const row = await uploadAsset(deps, req, principalOf(res).accountId);
      const { json, etag } = assetAnswer(row, baseUrl);
      sendJson(res.status(201).location(assetUrl(baseUrl, row)).set('ETag', etag), json);
    },
    discardBodyOnError(REFUSED_UPLOAD_DISCARD),
  );

  // @implements ASSET-007
  router.put('/assets/:id', context.auth, context.validate('updateAsset'), async (req, res) => {
    const { params, body } = validated(res, 'updateAsset');
    const deps = { db: context.db, now: context.now, baseUrl };
    const row = await editAsset(deps, principalOf(res), params.id, body, req.get('if-match'));
    const { json, etag } = assetAnswer(row, baseUrl);
    sendJson(res.set('ETag', etag), json);
  });

  // @implements ASSET-005
  router.get('/assets/:id/:filename', context.auth, context.validate('getAssetFile'), async (req, res) => {
    const { params, query } = validated(res, 'getAssetFile');
    // Any valid token reads any file (DEC-ASSET-004); the file name is informational (DEC-ASSET-005).
    const row = await fileInfo(params.id);
    if (row === null) throw noSuchAsset(params.id);

    const request = { w: query.w, h: query.h, mode: query.mode ?? 'fit' };
    const source =
      isImage(row.mimetype) && row.width !== null && row.height !== null
        ? { width: row.width, height: row.height }
        : undefined;
    const variant = source === undefined ? undefined : variantSize(source, request);
    const etag = fileEtag(row.sha256, variant);
    res.set({ ETag: etag, ...FILE_HEADERS });
    if (matchesIfNoneMatch(req.headers['if-none-match'], etag)) {
      res.status(304).end();
      return;
    }
    setDisposition(res, row, INLINE_TYPES.test(row.mimetype) ? 'inline' : 'attachment');
    // The file itself is opened only when needed: a cached variant or a 304 never touches it.
    const open = async () => {
      const file = await store.open(row.id);
      if (file === undefined) throw noSuchAsset(row.id);
      return file;
    };
    if (source === undefined || variant === undefined) {
      const file = await open();
      res.type(row.mimetype);
      sendStream(res, file.size, file.stream());
      return;
    }
    const { bytes, cached } = await resizer.resize(
      etag,
      async () => (await open()).sharpInput(),
      row.mimetype,
      variant,
      source,
    );
    res
      .type(row.mimetype)
      .set('X-Asset-Cache', cached ? 'hit' : 'miss')
      .send(bytes);
  });

  return router;
}

/**
 * `Content-Disposition` named `<id>.<extension of the sniffed type>`: the uploader's name and the
 * URL's are anyone's choice, and a PDF saved as `flyer.html` would open as a page.
 */
function setDisposition(res: Response, row: AssetFileInfo, type: 'inline' | 'attachment'): void {
  const extension = fileExtension(row.mimetype);
  res.set('Content-Disposition', `${type}; filename="${row.id}.${extension}"`);
}

function sendStream(res: Response, size: number, stream: Readable): void {
  res.set('Content-Length', String(size));
  if (res.req.method === 'HEAD') {
    stream.destroy();
    res.end();
    return;
  }
  // pipeline closes the file when the client goes away mid-download.
  pipeline(stream, res, () => {});
}
