// Shapes the sync procedure needs. They are the minimal structural subset of the generated
// types (`TrcItem`, the assets page), so the typed client's results fit them directly.

export const COLLECTIONS = ['events', 'locations', 'routes', 'eventgroups', 'venues'] as const;
export type Collection = (typeof COLLECTIONS)[number];

export type WfStatus = 'draft' | 'readyforvalidation' | 'approved' | 'rejected' | 'archived' | 'deleted';

/** What sync reads of a TRCItem; every other field is kept as given. */
export interface SyncItem {
  trcid: string;
  wfstatus?: WfStatus | (string & {});
  lastupdated?: string;
  [field: string]: unknown;
}

/** Query of a list endpoint, as the sync procedure sends it (SYNC-002). */
export interface ListItemsQuery {
  wfstatus: string;
  sortField: 'lastupdated';
  sortOrder: 'ASC';
  size: number;
  /** Inclusive lower bound; omitted on the first run (full backfill). */
  lastupdated?: string;
}

export interface SourceCallOptions {
  signal?: AbortSignal;
}

/** One list call of the service. Implemented over the typed client (`GET /{collection}`). */
export interface ItemSource<T extends SyncItem = SyncItem> {
  listItems(collection: Collection, query: ListItemsQuery, options?: SourceCallOptions): Promise<T[]>;
}

export interface AssetRecord {
  id: string;
  created?: string;
  modified?: string;
  [field: string]: unknown;
}

export interface AssetPage<A extends AssetRecord = AssetRecord> {
  size: number;
  page: number;
  hits: number;
  results: A[];
}

export interface ListAssetsQuery {
  sortField: 'modified';
  sortOrder: 'asc';
  size: number;
  /** Zero-based (DEC-LIST-009). */
  page: number;
  /** Inclusive; matches `modified`, else `created`. Omitted to list everything. */
  lastupdated?: string;
}

/** `GET /assets`. Implemented over the typed client. */
export interface AssetSource<A extends AssetRecord = AssetRecord> {
  listAssets(query: ListAssetsQuery, options?: SourceCallOptions): Promise<AssetPage<A>>;
}
