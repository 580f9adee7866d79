// Plain HTTP implementations of ItemSource and AssetSource over any fetch function (normally
// the retrying transport). They need no generated types, so sync works end to end today; the
// typed openapi-fetch client can replace them without touching the sync code.

import type { AssetPage, AssetRecord, AssetSource, Collection, ItemSource, ListAssetsQuery, ListItemsQuery, SourceCallOptions, SyncItem } from '../sync/types.ts';
import type { FetchFunction } from './transport.ts';

/** A non-2xx answer, with the interface's error body when there is one ({status, error, message}). */
export class ServiceError extends Error {
  readonly status: number;
  readonly url: string;
  readonly body: unknown;
  constructor(status: number, url: string, body: unknown) {
    const message = (body as { message?: unknown } | null)?.message;
    super(`HTTP ${status} from ${url}${typeof message === 'string' ? `: ${message}` : ''}`);
    this.name = 'ServiceError';
    this.status = status;
    this.url = url;
    this.body = body;
  }
}

export interface HttpSourceOptions {
  /** `{base_url}`, ending in the `/api` prefix, e.g. `https://cs.example/api`. */
  baseUrl: string;
  /** Account API token, sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Default: the global fetch. Pass `createTransport().fetch` for keep-alive, timeouts and 429 handling. */
  fetch?: FetchFunction;
}

export function createHttpSource<T extends SyncItem = SyncItem, A extends AssetRecord = AssetRecord>(options: HttpSourceOptions): ItemSource<T> & AssetSource<A> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const fetchFn = options.fetch ?? fetch;

  async function getJson(path: string, query: Record<string, string | number | boolean | undefined>, call?: SourceCallOptions): Promise<unknown> {
    const params = new URLSearchParams();
    // URLSearchParams percent-encodes '+', so an offset like +01:00 arrives intact.
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    const url = `${base}${path}?${params}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const res = await fetchFn(url, { headers, signal: call?.signal });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // keep the text for the error
    }
    if (!res.ok) throw new ServiceError(res.status, url, body);
    return body;
  }

  return {
    async listItems(collection: Collection, query: ListItemsQuery, call?: SourceCallOptions) {
      const body = await getJson(`/${collection}`, { ...query }, call);
      if (!Array.isArray(body)) throw new ServiceError(200, `${base}/${collection}`, { message: 'expected a bare JSON array of items' });
      return body as T[];
    },
    async listAssets(query: ListAssetsQuery, call?: SourceCallOptions) {
      return (await getJson('/assets', { ...query }, call)) as AssetPage<A>;
    },
  };
}
