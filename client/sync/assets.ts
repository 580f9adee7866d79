// Polling the assets list (Assets rules 1–4, ASSET-016). Assets send no webhooks and deletions
// do not show in the list, so a poll with a mark is the only way to see changes.
//
// Query: lastupdated=<mark> (inclusive, matches `modified`, else `created`), sortField=modified,
// sortOrder=asc, paged by `page` (zero-based, DEC-LIST-009). The new mark is the largest
// `modified`, else `created`, received, kept as the service's own string.
//
// Page numbers are offsets into a list that can change while we read it: an asset modified
// mid-poll moves to the end and shifts the rows after it back by one, so the first row of the
// next page can be missed. This is inherent to `page` paging (the interface offers no keyset for
// assets); it is narrow because asset edits are rare, and the README says so.

import { compareInstants, laterOf } from './instant.ts';
import { SyncProtocolError } from './keyset.ts';
import type { AssetRecord, AssetSource, ListAssetsQuery } from './types.ts';

export interface FetchAssetsOptions {
  /** Page size. Default 100 (the assets maximum is 1000, DEC-LIST-009). */
  size?: number;
  signal?: AbortSignal;
  /** Safety stop against a service that ignores `page`. Default 10 000. */
  maxPages?: number;
  onPage?: (page: { page: number; results: number; hits: number }) => void;
}

export interface AssetsSince<A extends AssetRecord> {
  /** Changed or new assets since the mark (the ones at the mark itself come again). */
  assets: A[];
  /** Mark for the next poll; the input mark when nothing came back. */
  mark: string | undefined;
  pages: number;
  hits: number;
}

/** The stamp that advances an assets mark: `modified`, else `created` (ASSET-016). */
export function assetStamp(asset: AssetRecord): string | undefined {
  return typeof asset.modified === 'string'
    ? asset.modified
    : typeof asset.created === 'string'
      ? asset.created
      : undefined;
}

export async function fetchAssetsSince<A extends AssetRecord>(
  source: AssetSource<A>,
  mark: string | undefined,
  options: FetchAssetsOptions = {},
): Promise<AssetsSince<A>> {
  const size = options.size ?? 100;
  const maxPages = options.maxPages ?? 10_000;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`size must be an integer ≥ 1 (received: ${size})`);

  const assets: A[] = [];
  const seenIds = new Set<string>();
  let next = mark;
  let hits = 0;
  let pages = 0;
  for (let page = 0; ; page++) {
    options.signal?.throwIfAborted();
    if (page >= maxPages)
      throw new SyncProtocolError(
        `assets: more than ${maxPages} pages; the service may be ignoring the page parameter`,
      );
    const query: ListAssetsQuery = {
      sortField: 'modified',
      sortOrder: 'asc',
      size,
      page,
      ...(mark !== undefined ? { lastupdated: mark } : {}),
    };
    const body = await source.listAssets(query, { signal: options.signal });
    if (!body || !Array.isArray(body.results))
      throw new SyncProtocolError(`assets page ${page}: expected {size, page, hits, results[]}`);
    pages++;
    hits = typeof body.hits === 'number' ? body.hits : hits;
    let newOnPage = 0;
    for (const asset of body.results) {
      if (seenIds.has(asset.id)) continue;
      seenIds.add(asset.id);
      newOnPage++;
      assets.push(asset);
      const stamp = assetStamp(asset);
      if (stamp === undefined) continue;
      if (mark !== undefined && compareInstants(stamp, mark) < 0) {
        throw new SyncProtocolError(
          `assets: ${asset.id} has modified/created ${stamp}, before lastupdated=${mark} (the filter is inclusive >=)`,
        );
      }
      next = laterOf(next, stamp);
    }
    options.onPage?.({ page, results: body.results.length, hits });
    if (body.results.length < size) break;
    if (typeof body.hits === 'number' && (page + 1) * size >= body.hits) break;
    if (newOnPage === 0)
      throw new SyncProtocolError(
        `assets page ${page}: only repeats of earlier pages; the service may be ignoring the page parameter`,
      );
  }
  return { assets, mark: next, pages, hits };
}
