import { ASSETS_PAGE_SIZE } from '../../../generated/constants.ts';
import type { operations } from '../../../generated/types.ts';
import { parseLastupdated } from '../domain/timestamps.ts';
import type { AssetSortKey, ListAssetsParams } from '../storage/assets/listAssets.ts';

/** The assets list query as validated against the spec. */
export type AssetListQuery = NonNullable<operations['listAssets']['parameters']['query']>;

// @implements ASSET-011
// ASSET-011: `lastupdated` is an alias of `modified`; anything unrecognised sorts by upload date.
const SORT_KEYS: Readonly<Record<string, AssetSortKey>> = {
  date: 'created',
  name: 'filename',
  size: 'size',
  modified: 'modified',
  lastupdated: 'modified',
};

const DEFAULT_ASSET_PAGE_SIZE = ASSETS_PAGE_SIZE.default; // DEC-LIST-009

// @implements ASSET-009
/**
 * The storage query of `GET /assets` for `accountId`: `lastupdated` read with the Europe/Amsterdam
 * default zone and date-only support (DEC-LIST-005; unparseable: 400, ERR-002), `sortOrder` in any
 * letter case with `desc` as default (ASSET-014, DEC-ASSET-006), zero-based `page` (DEC-LIST-009).
 * @implements ERR-002, ASSET-014
 */
export function listAssetsParams(
  accountId: string,
  query: AssetListQuery,
): ListAssetsParams & { size: number; page: number } {
  const size = query.size ?? DEFAULT_ASSET_PAGE_SIZE;
  const page = query.page ?? 0;
  return {
    accountId,
    changedFrom: query.lastupdated === undefined ? undefined : parseLastupdated(query.lastupdated),
    sortKey: Object.hasOwn(SORT_KEYS, query.sortField ?? '') ? SORT_KEYS[query.sortField!]! : 'created',
    sortOrder: query.sortOrder?.toLowerCase() === 'asc' ? 'ASC' : 'DESC',
    limit: size,
    // Past any real store, a page is simply empty rather than an overflowing offset.
    offset: Math.min(page * size, Number.MAX_SAFE_INTEGER),
    size,
    page,
  };
}
