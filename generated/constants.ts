// GENERATED FILE, do not edit. Rebuilt from spec/openapi.yaml by `npm run generate` (scripts/generate.ts); `npm run generate:check` fails when it is stale.
// Values of the contract, read from the spec. Import them instead of typing them again.

/** Item collections: path segment → the one entity type its list answers hold. */
export const COLLECTIONS = {
  "events": "EVENEMENT",
  "locations": "LOCATIE",
  "venues": "VENUE",
  "eventgroups": "EVENTGROUP",
  "routes": "ROUTE"
} as const;
export type Collection = keyof typeof COLLECTIONS;

/** `entitytype` values (the TrcItem discriminator). */
export const ENTITY_TYPES = [
  "EVENEMENT",
  "LOCATIE",
  "VENUE",
  "EVENTGROUP",
  "ROUTE"
] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];
/** Each entity type by name: `ENTITY_TYPE.EVENEMENT`. */
export const ENTITY_TYPE = {
  "EVENEMENT": "EVENEMENT",
  "LOCATIE": "LOCATIE",
  "VENUE": "VENUE",
  "EVENTGROUP": "EVENTGROUP",
  "ROUTE": "ROUTE"
} as const;

/** `wfstatus` values (schema WfStatus). */
export const WORKFLOW_STATUSES = [
  "draft",
  "readyforvalidation",
  "approved",
  "rejected",
  "archived",
  "deleted"
] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];
/** Each workflow status by name: `WORKFLOW_STATUS.approved`. */
export const WORKFLOW_STATUS = {
  "draft": "draft",
  "readyforvalidation": "readyforvalidation",
  "approved": "approved",
  "rejected": "rejected",
  "archived": "archived",
  "deleted": "deleted"
} as const;

/** The `size` query parameter of the item lists: bounds and the default page size. */
export const PAGE_SIZE = {
  "minimum": 1,
  "maximum": 2000,
  "default": 20
} as const;

/** The `size` of `GET /assets` and of a token's deliveries. */
export const ASSETS_PAGE_SIZE = {
  "minimum": 1,
  "maximum": 1000,
  "default": 20
} as const;
export const DELIVERIES_PAGE_SIZE = {
  "minimum": 1,
  "maximum": 100,
  "default": 20
} as const;

/** The rate of the rate-limited operations, per client IP: sustained per second, and the burst above it. */
export const RATE_LIMIT = {
  "perSecond": 20,
  "burst": 40
} as const;

/** Operation ids marked `x-rate-limited: true`: limited per client IP. */
export const RATE_LIMITED_OPERATIONS = [
  "listEvents",
  "listLocations",
  "listVenues",
  "listEventGroups",
  "listRoutes",
  "getDictionary"
] as const;
export type RateLimitedOperation = (typeof RATE_LIMITED_OPERATIONS)[number];

/** Headers of every webhook delivery, by their last word. */
export const WEBHOOK_HEADERS = {
  "timestamp": "X-Service-Timestamp",
  "signature": "X-Service-Signature",
  "delivery": "X-Service-Delivery"
} as const;

/** Items of one webhook delivery at most (CallbackBody `items`). */
export const WEBHOOK_MAX_ITEMS = 100;

/** Largest difference, in seconds, either way, between X-Service-Timestamp and a receiver's clock. */
export const WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS = 300;

/** `resourceType` of an entity type's webhook items (schema ResourceType). */
export const RESOURCE_TYPES = {
  "EVENEMENT": "EVENT",
  "LOCATIE": "LOCATION",
  "ROUTE": "ROUTE",
  "EVENTGROUP": "EVENTGROUP",
  "VENUE": "VENUE"
} as const satisfies Record<EntityType, string>;
export type ResourceType = (typeof RESOURCE_TYPES)[EntityType];

/** The stem of an entity type's webhook event names: `<stem>Updated`, `<stem>Deleted`. */
export const WEBHOOK_EVENT_NAMES = {
  "EVENEMENT": "Event",
  "LOCATIE": "Location",
  "ROUTE": "Route",
  "EVENTGROUP": "EventGroup",
  "VENUE": "Venue"
} as const satisfies Record<EntityType, string>;
