// The typed client: an openapi-fetch client over `generated/types.ts` (every operation of the
// spec, typed request and response), sending the bearer token through the retrying undici
// transport, plus a few wrappers that throw on errors and implement the sources the sync code
// reads (`ItemSource`, `AssetSource`), so `syncItems(createContentClient(…), 'events', store)`.

import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../generated/types.ts';
import {
  COLLECTIONS,
  type AssetPage,
  type AssetSource,
  type Collection,
  type ContentAsset,
  type ContentItem,
  type ItemOf,
  type ItemSource,
  type ListItemsQuery,
  type SourceCallOptions,
} from '../sync/types.ts';
import { editItem, type EditItemOptions, type TaggedItem } from './editItem.ts';
import { withJsonBodiesByParseJson } from './jsonBodies.ts';
import { ServiceError } from './serviceError.ts';
import { createTransport, type FetchFunction, type Transport, type TransportOptions } from './transport.ts';

export interface ContentClientOptions {
  /** `{base_url}`: ends in `/api` on a deployment (`https://cs.example/api`); the Prism mock has no prefix. */
  baseUrl: string;
  /** Account API token, sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** A transport to share (its retries and `onWait` apply); not closed by `close()`. */
  transport?: Transport;
  /** Any fetch function instead of a transport (then retries are whatever it does). */
  fetch?: FetchFunction;
  /** Sent as `User-Agent`; default `content-service-client/<version>`. */
  userAgent?: string;
  /** Options of the transport created when neither `transport` nor `fetch` is given. */
  transportOptions?: TransportOptions;
}

/** Query of `GET /{collection}`, as the spec types it for that collection. */
export type ListQuery<C extends Collection> = NonNullable<NonNullable<paths[`/${C}`]['get']>['parameters']['query']>;
/** Query of `GET /assets`. */
export type AssetsQuery = NonNullable<NonNullable<paths['/assets']['get']>['parameters']['query']>;

export interface ContentCalls extends ItemSource<ContentItem>, AssetSource<ContentAsset> {
  /** One page of a collection; throws `ServiceError` on a non-2xx answer. */
  listItems<C extends Collection>(
    collection: C,
    query?: ListQuery<C>,
    options?: SourceCallOptions,
  ): Promise<ItemOf<C>[]>;
  /** The body of one list page as received, unparsed (sync parses it while the next page is on its way). */
  listItemsBody(collection: Collection, query: ListItemsQuery, options?: SourceCallOptions): Promise<Uint8Array>;
  /** One item by its internal `id`; `undefined` on 404 (unknown, out of scope or deleted). */
  getItem<C extends Collection>(collection: C, id: string, options?: SourceCallOptions): Promise<ItemOf<C> | undefined>;
  /**
   * The current state of a webhook's `resourceUri` (`{base_url}/<collection>/<id>`): the last two
   * path segments are read through this client's `baseUrl`, so the token never goes to a host the
   * payload names. `undefined` on 404, the expected answer after a `DELETED` action.
   */
  getResource(resourceUri: string, options?: SourceCallOptions): Promise<ContentItem | undefined>;
  /** One item with its ETag (DEC-ITEM-031), for a write back with `If-Match`; `undefined` on 404. */
  readItem<C extends Collection>(
    collection: C,
    id: string,
    options?: SourceCallOptions,
  ): Promise<TaggedItem<ItemOf<C>> | undefined>;
  /**
   * `PUT /{collection}/{id}`: the item replaced by `body` (a draft, or an item as read: its
   * read-only fields are ignored). With `ifMatch` only while the item still has that ETag:
   * otherwise `ServiceError` 412 and nothing changed. Answers the stored item and its new ETag.
   */
  replaceItem<C extends Collection>(
    collection: C,
    id: string,
    body: unknown,
    options?: SourceCallOptions & { ifMatch?: string },
  ): Promise<TaggedItem<ItemOf<C>>>;
  /**
   * Read, `edit`, write back with `If-Match`; on a 412 (someone wrote in between) read again and
   * reapply (see editItem.ts). `edit` gets the item as read and returns the body to write.
   */
  editItem<C extends Collection>(
    collection: C,
    id: string,
    edit: (item: ItemOf<C>) => unknown,
    options?: EditItemOptions,
  ): Promise<TaggedItem<ItemOf<C>>>;
  /** One page of `GET /assets`; throws `ServiceError` on a non-2xx answer. */
  listAssets(query?: AssetsQuery, options?: SourceCallOptions): Promise<AssetPage<ContentAsset>>;
  /** Closes the transport the client created (nothing when one was passed in). */
  close(): Promise<void>;
}

export type ContentClient = Client<paths> & ContentCalls;

interface Answer {
  data?: unknown;
  error?: unknown;
  response: Response;
}

function unwrap<T>(answer: Answer): T {
  if (!answer.response.ok) throw new ServiceError(answer.response.status, answer.response.url, answer.error);
  return answer.data as T;
}

export function createContentClient(options: ContentClientOptions): ContentClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const ownTransport =
    options.transport === undefined && options.fetch === undefined
      ? createTransport({ userAgent: options.userAgent, ...options.transportOptions })
      : undefined;
  const fetchFn = options.transport?.fetch ?? options.fetch ?? ownTransport!.fetch;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  // The transport sets its own User-Agent; a plain fetch gets it here.
  if (options.userAgent !== undefined) headers['User-Agent'] = options.userAgent;

  const client = withJsonBodiesByParseJson(
    createClient<paths>({
      baseUrl,
      fetch: fetchFn,
      headers,
      // `wfstatus` is `style: form, explode: false` in the spec: wfstatus=approved,archived,deleted.
      querySerializer: { array: { style: 'form', explode: false } },
    }),
  );

  // One typed call per collection: each checks its own path's query and response types.
  // `parseAs: 'arrayBuffer'` hands the body over unparsed (listItemsBody); errors are parsed either way.
  type ParseAs = 'json' | 'arrayBuffer';
  const list = {
    events: (query: ListQuery<'events'> | undefined, signal?: AbortSignal, parseAs: ParseAs = 'json') =>
      client.GET('/events', { params: { query }, signal, parseAs }),
    locations: (query: ListQuery<'locations'> | undefined, signal?: AbortSignal, parseAs: ParseAs = 'json') =>
      client.GET('/locations', { params: { query }, signal, parseAs }),
    routes: (query: ListQuery<'routes'> | undefined, signal?: AbortSignal, parseAs: ParseAs = 'json') =>
      client.GET('/routes', { params: { query }, signal, parseAs }),
    eventgroups: (query: ListQuery<'eventgroups'> | undefined, signal?: AbortSignal, parseAs: ParseAs = 'json') =>
      client.GET('/eventgroups', { params: { query }, signal, parseAs }),
    venues: (query: ListQuery<'venues'> | undefined, signal?: AbortSignal, parseAs: ParseAs = 'json') =>
      client.GET('/venues', { params: { query }, signal, parseAs }),
  } satisfies Record<Collection, unknown>;
  const detail = {
    events: (id: string, signal?: AbortSignal) => client.GET('/events/{id}', { params: { path: { id } }, signal }),
    locations: (id: string, signal?: AbortSignal) =>
      client.GET('/locations/{id}', { params: { path: { id } }, signal }),
    routes: (id: string, signal?: AbortSignal) => client.GET('/routes/{id}', { params: { path: { id } }, signal }),
    eventgroups: (id: string, signal?: AbortSignal) =>
      client.GET('/eventgroups/{id}', { params: { path: { id } }, signal }),
    venues: (id: string, signal?: AbortSignal) => client.GET('/venues/{id}', { params: { path: { id } }, signal }),
  } satisfies Record<Collection, unknown>;

  type Put = (id: string, body: never, ifMatch: string | undefined, signal?: AbortSignal) => Promise<Answer>;
  const header = (ifMatch: string | undefined) => (ifMatch === undefined ? {} : { 'If-Match': ifMatch });
  const replace = {
    events: (id, body, ifMatch, signal) =>
      client.PUT('/events/{id}', { params: { path: { id }, header: header(ifMatch) }, body, signal }),
    locations: (id, body, ifMatch, signal) =>
      client.PUT('/locations/{id}', { params: { path: { id }, header: header(ifMatch) }, body, signal }),
    routes: (id, body, ifMatch, signal) =>
      client.PUT('/routes/{id}', { params: { path: { id }, header: header(ifMatch) }, body, signal }),
    eventgroups: (id, body, ifMatch, signal) =>
      client.PUT('/eventgroups/{id}', { params: { path: { id }, header: header(ifMatch) }, body, signal }),
    venues: (id, body, ifMatch, signal) =>
      client.PUT('/venues/{id}', { params: { path: { id }, header: header(ifMatch) }, body, signal }),
  } satisfies Record<Collection, Put>;
  const tagged = <T>(answer: Answer): TaggedItem<T> => ({
    item: unwrap<T>(answer),
    etag: answer.response.headers.get('etag') ?? undefined,
  });

  const checkCollection = (collection: string): Collection => {
    if (!(COLLECTIONS as readonly string[]).includes(collection))
      throw new RangeError(
        `unknown collection ${JSON.stringify(collection)}; expected one of ${COLLECTIONS.join(', ')}`,
      );
    return collection as Collection;
  };

  const calls: ContentCalls = {
    async listItems<C extends Collection>(
      collection: C,
      query?: ListQuery<C>,
      call?: SourceCallOptions,
    ): Promise<ItemOf<C>[]> {
      const lister = list[checkCollection(collection)] as (
        q: ListQuery<C> | undefined,
        s?: AbortSignal,
      ) => Promise<Answer>;
      const answer = await lister(query, call?.signal);
      const items = unwrap<unknown>(answer);
      if (!Array.isArray(items))
        throw new ServiceError(answer.response.status, answer.response.url, {
          message: 'expected a bare JSON array of items',
        });
      return items as ItemOf<C>[];
    },
    async listItemsBody(collection, query, call) {
      const lister = list[checkCollection(collection)] as (
        q: ListItemsQuery,
        s: AbortSignal | undefined,
        parseAs: ParseAs,
      ) => Promise<Answer>;
      const answer = await lister(query, call?.signal, 'arrayBuffer');
      return new Uint8Array(unwrap<ArrayBuffer>(answer));
    },
    async getItem<C extends Collection>(
      collection: C,
      id: string,
      call?: SourceCallOptions,
    ): Promise<ItemOf<C> | undefined> {
      const getter = detail[checkCollection(collection)] as (id: string, s?: AbortSignal) => Promise<Answer>;
      const answer = await getter(id, call?.signal);
      if (answer.response.status === 404) return undefined;
      return unwrap<ItemOf<C>>(answer);
    },
    async readItem<C extends Collection>(collection: C, id: string, call?: SourceCallOptions) {
      const getter = detail[checkCollection(collection)] as (id: string, s?: AbortSignal) => Promise<Answer>;
      const answer = await getter(id, call?.signal);
      if (answer.response.status === 404) return undefined;
      return tagged<ItemOf<C>>(answer);
    },
    async replaceItem<C extends Collection>(
      collection: C,
      id: string,
      body: unknown,
      call?: SourceCallOptions & { ifMatch?: string },
    ) {
      const put: Put = replace[checkCollection(collection)];
      return tagged<ItemOf<C>>(await put(id, body as never, call?.ifMatch, call?.signal));
    },
    editItem: (collection, id, edit, options) => editItem(calls, collection, id, edit, options),
    async getResource(resourceUri, call) {
      const match = /\/([a-z]+)\/([^/]+)\/?$/.exec(URL.canParse(resourceUri) ? new URL(resourceUri).pathname : '');
      if (!match)
        throw new RangeError(`resourceUri ${JSON.stringify(resourceUri)} is not an item URL (…/<collection>/<id>)`);
      return calls.getItem(checkCollection(match[1]!), decodeURIComponent(match[2]!), call);
    },
    async listAssets(query, call) {
      const answer = await client.GET('/assets', { params: { query }, signal: call?.signal });
      return unwrap<AssetPage<ContentAsset>>(answer);
    },
    close: async () => {
      await ownTransport?.close();
    },
  };
  return Object.assign(client, calls);
}
