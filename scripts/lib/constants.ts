// generated/constants.ts: the contract's values as code, read from the dereferenced spec, so the
// service and the client import them instead of typing them again. Throws when the spec no longer
// has the shape a value is read from, so a renamed schema fails `npm run generate`.

import { getAt } from '../../spec/index.ts';

type Node = Record<string, unknown>;

function object(value: unknown, where: string): Node {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`constants: ${where} is not an object`);
  return value as Node;
}

function at(root: unknown, pointer: string): unknown {
  const node = getAt(root, pointer);
  if (node === undefined) throw new Error(`constants: nothing at ${pointer}`);
  return node;
}

function strings(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw new Error(`constants: ${where} is not a list of strings`);
  return value;
}

function integer(value: unknown, where: string): number {
  if (!Number.isInteger(value)) throw new Error(`constants: ${where} is not an integer`);
  return value as number;
}

/** The `entitytype` const of an item schema, looking through `allOf`. */
function entitytypeOf(schema: unknown): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const node = schema as Node;
  const own = ((node.properties as Node | undefined)?.entitytype as Node | undefined)?.const;
  if (typeof own === 'string') return own;
  for (const part of (node.allOf as unknown[] | undefined) ?? []) {
    const found = entitytypeOf(part);
    if (found) return found;
  }
  return undefined;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export interface Constants {
  collections: Record<string, string>;
  entityTypes: string[];
  workflowStatuses: string[];
  pageSize: { minimum: number; maximum: number; default: number };
  /** The same for `GET /assets` and a token's deliveries. */
  assetsPageSize: { minimum: number; maximum: number; default: number };
  deliveriesPageSize: { minimum: number; maximum: number; default: number };
  rateLimit: { perSecond: number; burst: number };
  /** Items of one webhook delivery at most. */
  webhookMaxItems: number;
  rateLimitedOperations: string[];
  webhookHeaders: Record<string, string>;
  webhookToleranceSeconds: number;
  /** Entity type → CallbackItem.resourceType. */
  resourceTypes: Record<string, string>;
  /** Entity type → the stem of its webhook event names. */
  eventNames: Record<string, string>;
}

/** Entity type → resource type and event name, from ResourceType's `x-resources`, checked against the webhooks. */
function readResources(
  dereferenced: Record<string, unknown>,
  collections: Record<string, string>,
): Pick<Constants, 'resourceTypes' | 'eventNames'> {
  const schema = object(at(dereferenced, '/components/schemas/ResourceType'), 'ResourceType');
  const resources = object(schema['x-resources'], 'ResourceType x-resources');
  const enumValues = strings(schema.enum, 'ResourceType enum');
  const webhooks = Object.keys(object(dereferenced.webhooks, '/webhooks'));
  const resourceTypes: Record<string, string> = {};
  const eventNames: Record<string, string> = {};
  for (const resourceType of enumValues) {
    const resource = object(resources[resourceType], `x-resources ${resourceType}`);
    const entitytype = collections[String(resource.collection)];
    if (entitytype === undefined) throw new Error(`constants: x-resources ${resourceType} names no collection`);
    const eventName = String(resource.eventName);
    for (const action of ['Updated', 'Deleted'])
      if (!webhooks.includes(`${eventName}${action}`))
        throw new Error(`constants: no webhook ${eventName}${action} for resource type ${resourceType}`);
    resourceTypes[entitytype] = resourceType;
    eventNames[entitytype] = eventName;
  }
  const extra = Object.keys(resources).filter((r) => !enumValues.includes(r));
  if (extra.length > 0) throw new Error(`constants: x-resources names ${extra.join(', ')}, not in the enum`);
  return { resourceTypes, eventNames };
}

export function readConstants(dereferenced: Record<string, unknown>): Constants {
  const paths = object(dereferenced.paths, '/paths');

  // A collection is a one-segment path whose list answer is an array of one entity type.
  const collections: Record<string, string> = {};
  for (const [path, item] of Object.entries(paths)) {
    const segment = /^\/([a-z]+)$/.exec(path)?.[1];
    const list = (object(item, path).get as Node | undefined)?.responses as Node | undefined;
    const schema = ((list?.['200'] as Node | undefined)?.content as Node | undefined)?.['application/json'] as
      Node | undefined;
    const body = schema?.schema as Node | undefined;
    const entitytype = body?.type === 'array' ? entitytypeOf(body.items) : undefined;
    if (segment && entitytype) collections[segment] = entitytype;
  }

  const rateLimitedOperations: string[] = [];
  for (const item of Object.values(paths))
    for (const method of METHODS) {
      const operation = object(item, 'path item')[method] as Node | undefined;
      if (operation?.['x-rate-limited'] === true) rateLimitedOperations.push(String(operation.operationId));
    }

  const webhookHeaders: Record<string, string> = {};
  for (const [name, webhook] of Object.entries(object(dereferenced.webhooks, '/webhooks')))
    for (const parameter of (object(object(webhook, name).post, name).parameters as Node[] | undefined) ?? [])
      if (parameter.in === 'header') {
        const header = String(parameter.name);
        webhookHeaders[header.split('-').at(-1)!.toLowerCase()] = header;
      }

  const sizeOf = (parameter: string) => {
    const size = object(at(dereferenced, `/components/parameters/${parameter}/schema`), `${parameter} schema`);
    return {
      minimum: integer(size.minimum, `${parameter} minimum`),
      maximum: integer(size.maximum, `${parameter} maximum`),
      default: integer(size.default, `${parameter} default`),
    };
  };
  const rate = object(
    at(dereferenced, '/components/responses/TooManyRequests/x-rate-limit'),
    'TooManyRequests x-rate-limit',
  );
  const constants: Omit<Constants, 'resourceTypes' | 'eventNames'> = {
    collections,
    entityTypes: Object.keys(object(at(dereferenced, '/components/schemas/TrcItem/discriminator/mapping'), 'mapping')),
    workflowStatuses: strings(at(dereferenced, '/components/schemas/WfStatus/enum'), 'WfStatus enum'),
    pageSize: sizeOf('Size'),
    assetsPageSize: sizeOf('AssetsSize'),
    deliveriesPageSize: sizeOf('DeliveriesSize'),
    webhookMaxItems: integer(
      at(dereferenced, '/components/schemas/CallbackBody/properties/items/maxItems'),
      'CallbackBody items maxItems',
    ),
    rateLimit: {
      perSecond: integer(rate.perSecond, 'x-rate-limit perSecond'),
      burst: integer(rate.burst, 'x-rate-limit burst'),
    },
    rateLimitedOperations,
    webhookHeaders,
    webhookToleranceSeconds: integer(
      at(dereferenced, '/components/parameters/XServiceTimestamp/x-tolerance-seconds'),
      'XServiceTimestamp x-tolerance-seconds',
    ),
  };
  const missing = constants.entityTypes.filter((t) => !Object.values(collections).includes(t));
  if (missing.length > 0) throw new Error(`constants: no collection lists ${missing.join(', ')}`);
  const resources = readResources(dereferenced, collections);
  const unmapped = constants.entityTypes.filter((t) => resources.resourceTypes[t] === undefined);
  if (unmapped.length > 0) throw new Error(`constants: no resource type for ${unmapped.join(', ')}`);
  return { ...constants, ...resources };
}

const value = (v: unknown) => `${JSON.stringify(v, null, 2)} as const`;

/** Each value named by itself (`{ approved: 'approved' }`), so code can write `WORKFLOW_STATUS.approved`. */
const named = (values: readonly string[]) => value(Object.fromEntries(values.map((v) => [v, v])));

/** The text of generated/constants.ts (without the banner). */
export function constantsModule(dereferenced: Record<string, unknown>): string {
  const c = readConstants(dereferenced);
  return `// Values of the contract, read from the spec. Import them instead of typing them again.

/** Item collections: path segment → the one entity type its list answers hold. */
export const COLLECTIONS = ${value(c.collections)};
export type Collection = keyof typeof COLLECTIONS;

/** \`entitytype\` values (the TrcItem discriminator). */
export const ENTITY_TYPES = ${value(c.entityTypes)};
export type EntityType = (typeof ENTITY_TYPES)[number];
/** Each entity type by name: \`ENTITY_TYPE.EVENEMENT\`. */
export const ENTITY_TYPE = ${named(c.entityTypes)};

/** \`wfstatus\` values (schema WfStatus). */
export const WORKFLOW_STATUSES = ${value(c.workflowStatuses)};
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];
/** Each workflow status by name: \`WORKFLOW_STATUS.approved\`. */
export const WORKFLOW_STATUS = ${named(c.workflowStatuses)};

/** The \`size\` query parameter of the item lists: bounds and the default page size. */
export const PAGE_SIZE = ${value(c.pageSize)};

/** The \`size\` of \`GET /assets\` and of a token's deliveries. */
export const ASSETS_PAGE_SIZE = ${value(c.assetsPageSize)};
export const DELIVERIES_PAGE_SIZE = ${value(c.deliveriesPageSize)};

/** The rate of the rate-limited operations, per client IP: sustained per second, and the burst above it. */
export const RATE_LIMIT = ${value(c.rateLimit)};

/** Operation ids marked \`x-rate-limited: true\`: limited per client IP. */
export const RATE_LIMITED_OPERATIONS = ${value(c.rateLimitedOperations)};
export type RateLimitedOperation = (typeof RATE_LIMITED_OPERATIONS)[number];

/** Headers of every webhook delivery, by their last word. */
export const WEBHOOK_HEADERS = ${value(c.webhookHeaders)};

/** Items of one webhook delivery at most (CallbackBody \`items\`). */
export const WEBHOOK_MAX_ITEMS = ${c.webhookMaxItems};

/** Largest difference, in seconds, either way, between X-Service-Timestamp and a receiver's clock. */
export const WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS = ${c.webhookToleranceSeconds};

/** \`resourceType\` of an entity type's webhook items (schema ResourceType). */
export const RESOURCE_TYPES = ${value(c.resourceTypes)} satisfies Record<EntityType, string>;
export type ResourceType = (typeof RESOURCE_TYPES)[EntityType];

/** The stem of an entity type's webhook event names: \`<stem>Updated\`, \`<stem>Deleted\`. */
export const WEBHOOK_EVENT_NAMES = ${value(c.eventNames)} satisfies Record<EntityType, string>;
`;
}
