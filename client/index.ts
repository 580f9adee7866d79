// Public API of the Content Service client toolkit (`content-service-toolkit/client`).

// HTTP: retrying undici transport (a fetch function for openapi-fetch).
export { createTransport, USER_AGENT } from './http/transport.ts';
export type { FetchFunction, Transport, TransportOptions } from './http/transport.ts';
export { createRetryPolicy, parseRetryAfter, backoffDelay, DEFAULT_IDEMPOTENT_METHODS } from './http/retry.ts';
export type {
  GiveUpEvent,
  RetryOptions,
  RetryPolicy,
  RetryReason,
  RetryableResponse,
  WaitEvent,
} from './http/retry.ts';
export { ServiceError } from './http/serviceError.ts';

// The typed client: openapi-fetch over generated/types.ts, plus the sources sync reads.
export { createContentClient } from './http/contentClient.ts';
export type { EditItemOptions, TaggedItem } from './http/editItem.ts';
export type {
  AssetsQuery,
  ContentCalls,
  ContentClient,
  ContentClientOptions,
  ListQuery,
} from './http/contentClient.ts';

// Sync: the interface's incremental sync procedure, reconciliation, assets polling, stores.
export { syncItems, SYNC_WFSTATUS, DEFAULT_SYNC_SIZE } from './sync/syncItems.ts';
export type { SyncOptions, SyncProgress, SyncSummary } from './sync/syncItems.ts';
export { reconcile } from './sync/reconcile.ts';
export type { ReconcileOptions, ReconcileSummary } from './sync/reconcile.ts';
export { fetchAssetsSince, assetStamp } from './sync/assets.ts';
export type { AssetsSince, FetchAssetsOptions } from './sync/assets.ts';
export {
  keysetPages,
  assertSyncSize,
  LastUpdatedTieError,
  SyncProtocolError,
  MIN_SYNC_SIZE,
  MAX_PAGE_SIZE,
} from './sync/keyset.ts';
export type { ItemEntry, KeysetPage, KeysetOptions } from './sync/keyset.ts';
export { compareInstants, parseInstant, laterOf } from './sync/instant.ts';
export { applyOps } from './sync/store.ts';
export type { BatchResult, StoreOp, SyncStore } from './sync/store.ts';
export { createMemoryStore } from './sync/memoryStore.ts';
export type { MemoryStore } from './sync/memoryStore.ts';
export { createSqlStore, openSqlStore, pgPoolDatabase } from './sync/sqlStore.ts';
export type {
  OpenSqlStoreOptions,
  PgPoolLike,
  SqlDatabase,
  SqlQueryable,
  SqlStore,
  SqlStoreOptions,
} from './sync/sqlStore.ts';
export { COLLECTIONS } from './sync/types.ts';
export type {
  AssetPage,
  AssetRecord,
  AssetSource,
  Collection,
  ContentAsset,
  ContentItem,
  ItemOf,
  ItemSource,
  ListAssetsQuery,
  ListItemsQuery,
  SourceCallOptions,
  SyncItem,
  WfStatus,
} from './sync/types.ts';

// Webhooks: verification, dedupe, Express receiver.
export {
  verifyWebhook,
  signWebhook,
  getHeader,
  TIMESTAMP_HEADER,
  SIGNATURE_HEADER,
  DELIVERY_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
} from './webhooks/verify.ts';
export type { HeaderSource, VerifyFailureReason, VerifyOptions, VerifyResult } from './webhooks/verify.ts';
export { createMemoryDeduper, DEFAULT_DEDUPE_TTL_MS } from './webhooks/dedupe.ts';
export type { DeliveryDeduper, MemoryDeduper, MemoryDeduperOptions } from './webhooks/dedupe.ts';
export { webhookReceiver } from './webhooks/middleware.ts';
export {
  sampleCallbackBody,
  sampleCallbackItem,
  signedDelivery,
  WEBHOOK_EVENT_TYPES,
} from './webhooks/sampleDelivery.ts';
export type { Delivery, SampleItem, SignOptions } from './webhooks/sampleDelivery.ts';
export type {
  CallbackItem,
  DeliveryMeta,
  ReceiverLogger,
  WebhookReceiver,
  WebhookReceiverOptions,
} from './webhooks/middleware.ts';
