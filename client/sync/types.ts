// @implements ITEM-022
// Shapes the sync procedure needs, taken from the generated types. `SyncItem` and `AssetRecord`
// are the minimal constraints the sync code reads; the defaults of the type parameters are the
// full generated response types, so a typed client's results flow through unchanged. Responses
// may carry fields the spec does not name: they are kept (nothing here strips unknown fields).

import type {
  Asset,
  AssetPage as GeneratedAssetPage,
  operations,
  paths,
  Readable,
  TrcItem,
  TrcItemCommon,
  WfStatus,
} from '../../generated/types.ts';
import type { Collection as SpecCollection } from '../../generated/constants.ts';

export type { WfStatus };

export const COLLECTIONS = [
  'events',
  'locations',
  'routes',
  'eventgroups',
  'venues',
] as const satisfies readonly SpecCollection[];
export type Collection = (typeof COLLECTIONS)[number];

/** Any TRCItem as a list or detail read returns it (read-only fields included). */
export type ContentItem = Readable<TrcItem>;

/** The item type of one collection's list, e.g. `ItemOf<'events'>` is `Readable<Event>`. */
export type ItemOf<C extends Collection> = Readable<
  NonNullable<paths[`/${C}`]['get']>['responses'][200]['content']['application/json']
>[number];

/** A response asset. */
export type ContentAsset = Readable<Asset>;

/** What sync reads of an item: `trcid` (always present in responses), `wfstatus`, `lastupdated`. */
export type SyncItem = { trcid: string } & Pick<Readable<TrcItemCommon>, 'wfstatus' | 'lastupdated'>;

// @implements SYNC-002
/** Query of a list endpoint as the sync procedure sends it (SYNC-002); `wfstatus` goes out comma-separated. */
export interface ListItemsQuery {
  wfstatus: WfStatus[];
  sortField: 'lastupdated';
  sortOrder: 'ASC';
  size: number;
  /** Inclusive lower bound; omitted on the first run (full backfill). */
  lastupdated?: string;
}

// Compile-time guards (tsc fails here): the sync queries stay valid queries of the generated operations.
type Assert<T extends true> = T;
type ListQueryOf<C extends Collection> = NonNullable<NonNullable<paths[`/${C}`]['get']>['parameters']['query']>;
export type ListQueryFitsEveryList = Assert<
  { [C in Collection]: ListItemsQuery extends ListQueryOf<C> ? true : false }[Collection] extends true ? true : false
>;

export interface SourceCallOptions {
  signal?: AbortSignal;
}

/** One list call of the service (`GET /{collection}`); `createContentClient` implements it. */
export interface ItemSource<T extends SyncItem = ContentItem> {
  listItems(collection: Collection, query: ListItemsQuery, options?: SourceCallOptions): Promise<T[]>;
  /**
   * Optional: the same call's body as received (a JSON array of items, UTF-8), unparsed. With it,
   * sync sends the next request while it parses this page.
   */
  listItemsBody?(collection: Collection, query: ListItemsQuery, options?: SourceCallOptions): Promise<Uint8Array>;
}

/** What the assets poll reads of an asset. `created` is optional here so partial fakes fit. */
export type AssetRecord = Pick<ContentAsset, 'id' | 'modified'> & Partial<Pick<ContentAsset, 'created'>>;

/** The assets page `{size, page, hits, results[]}` with the asset type of the caller's choice. */
export type AssetPage<A extends AssetRecord = ContentAsset> = Omit<Readable<GeneratedAssetPage>, 'results'> & {
  results: A[];
};

/** Query of `GET /assets` as the poll sends it. */
export type ListAssetsQuery = {
  sortField: 'modified';
  sortOrder: 'asc';
  size: number;
  /** Zero-based (DEC-LIST-009). */
  page: number;
  /** Inclusive; matches `modified`, else `created`. Omitted to list everything. */
  lastupdated?: string;
};
export type AssetsQueryFits = Assert<
  ListAssetsQuery extends NonNullable<operations['listAssets']['parameters']['query']> ? true : false
>;

/** `GET /assets`; `createContentClient` implements it. */
export interface AssetSource<A extends AssetRecord = ContentAsset> {
  listAssets(query: ListAssetsQuery, options?: SourceCallOptions): Promise<AssetPage<A>>;
}
