// Small helpers for fault modifiers: recognise the interface's operations in proxied traffic,
// rewrite JSON items and query strings, re-sign a webhook delivery, and learn signing secrets
// from the API answers that show them once. Written independently of the checks' own support
// code, so a fault and the check that must catch it do not share a mistake.

import { createHmac } from 'node:crypto';
import type { FaultModifier, ProxiedDelivery, ProxiedRequest, ProxiedResponse, ProxyTools } from './faultProxy.ts';
import { jsonBody, readJson } from './faultProxy.ts';

export const COLLECTIONS = ['events', 'locations', 'routes', 'eventgroups', 'venues'] as const;
const COLLECTION_RE = new RegExp(`/(${COLLECTIONS.join('|')})(?:/([^/]+))?$`);

export type Item = Record<string, unknown>;

export function urlOf(req: ProxiedRequest): URL {
  return new URL(req.url, 'http://proxy');
}

/** `events` for GET …/events (a list), or undefined. */
export function listCollection(req: ProxiedRequest): string | undefined {
  const m = COLLECTION_RE.exec(urlOf(req).pathname);
  return req.method === 'GET' && m && m[2] === undefined ? m[1] : undefined;
}

/** The id of GET …/{collection}/{id} (a detail read), or undefined. */
export function detailId(req: ProxiedRequest): string | undefined {
  const m = COLLECTION_RE.exec(urlOf(req).pathname);
  return req.method === 'GET' && m && m[2] !== undefined ? decodeURIComponent(m[2]) : undefined;
}

/** The pathname after the target's base path: `/events/1` for /api/events/1. */
export function endpointOf(req: ProxiedRequest): string {
  return urlOf(req).pathname.replace(/^\/api(?=\/)/, '');
}

export function isJson(res: ProxiedResponse): boolean {
  return /json/.test(res.headers['content-type'] ?? '');
}

function isItem(value: unknown): value is Item {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && ('trcid' in value || 'entitytype' in value)
  );
}

/**
 * Applies `fn` to every TRCItem of a JSON answer (a list or one item). Returns the same answer
 * when nothing changed, so the proxy counts only real changes.
 */
export function mapItems(res: ProxiedResponse, fn: (item: Item) => Item): ProxiedResponse {
  if (res.status < 200 || res.status >= 300 || !isJson(res)) return res;
  const body = readJson(res.body);
  if (Array.isArray(body)) {
    let changed = false;
    const next = body.map((i: unknown) => {
      if (!isItem(i)) return i;
      const out = fn(i);
      if (out !== i) changed = true;
      return out;
    });
    return changed ? { ...res, body: jsonBody(next) } : res;
  }
  if (isItem(body)) {
    const out = fn(body);
    return out === body ? res : { ...res, body: jsonBody(out) };
  }
  return res;
}

/** Rewrites a JSON list answer as a whole (undefined from `fn`: unchanged). */
export function mapList(res: ProxiedResponse, fn: (items: Item[]) => unknown[] | undefined): ProxiedResponse {
  if (res.status !== 200 || !isJson(res)) return res;
  const body = readJson(res.body);
  if (!Array.isArray(body)) return res;
  const next = fn(body as Item[]);
  return next === undefined ? res : { ...res, body: jsonBody(next) };
}

/** The request with its query changed by `mutate` (same object when the query stays the same). */
export function withQuery(req: ProxiedRequest, mutate: (q: URLSearchParams) => void): ProxiedRequest {
  const url = urlOf(req);
  const before = url.search;
  mutate(url.searchParams);
  return url.search === before ? req : { ...req, url: url.pathname + url.search };
}

/** The bearer token of a request, if any. */
export function bearerOf(req: ProxiedRequest): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
}

export function withBearer(req: ProxiedRequest, token: string): ProxiedRequest {
  return { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } };
}

export function jsonAnswer(status: number, value: unknown, headers: Record<string, string> = {}): ProxiedResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: jsonBody(value) };
}

/** The primary-language title of an item (what sortField=title sorts by). */
export function titleOf(item: Item): string | undefined {
  const details = Array.isArray(item.trcItemDetails)
    ? (item.trcItemDetails as { lang?: string; title?: string }[])
    : [];
  const primary = (item.translations as { primaryLanguage?: string } | undefined)?.primaryLanguage;
  return (details.find((d) => d.lang === primary) ?? details[0])?.title;
}

export type CategoryEntry = Record<string, unknown>;

/**
 * Applies `fn` to every trcItemCategories.categories[] entry (`kind` 'categories') or types[]
 * entry ('types') of every item in a JSON answer; same answer when nothing changed.
 */
export function mapCategoryEntries(
  res: ProxiedResponse,
  fn: (entry: CategoryEntry, item: Item) => CategoryEntry,
  kind: 'categories' | 'types' = 'categories',
): ProxiedResponse {
  return mapItems(res, (item) => {
    const cats = item.trcItemCategories as Record<string, CategoryEntry[] | undefined> | undefined;
    const entries = cats?.[kind];
    if (!Array.isArray(entries)) return item;
    let changed = false;
    const next = entries.map((e) => {
      const out = fn(e, item);
      if (out !== e) changed = true;
      return out;
    });
    return changed ? { ...item, trcItemCategories: { ...cats, [kind]: next } } : item;
  });
}

/** A modifier rewriting the category entries of one datatype in every item answer. */
export function datatypeFault(
  name: string,
  datatype: string,
  fn: (entry: CategoryEntry) => CategoryEntry,
): FaultModifier {
  return {
    name,
    response: (res) => mapCategoryEntries(res, (e) => (e.datatype === datatype ? fn(e) : e)),
  };
}

/** `categorization` or `properties` for GET/PUT …/dictionary/{categorization,properties}Ontology. */
export function ontologyKind(req: ProxiedRequest): 'categorization' | 'properties' | undefined {
  const m = /\/dictionary\/(categorization|properties)Ontology$/.exec(urlOf(req).pathname);
  return m ? (m[1] as 'categorization' | 'properties') : undefined;
}

/** The id of an account that uses the base ontology of `kind`, read from the target's userorganisations. */
export async function baseAccount(
  req: ProxiedRequest,
  tools: ProxyTools,
  kind: 'categorization' | 'properties',
): Promise<string | undefined> {
  const path = urlOf(req).pathname;
  const base = path.slice(0, path.length - endpointOf(req).length);
  const res = await tools.upstream({
    ...req,
    method: 'GET',
    url: `${base}/dictionary/userorganisations`,
    body: Buffer.alloc(0),
  });
  const orgs = readJson(res.body) as { accountId?: string; ontology?: Record<string, string> }[] | undefined;
  return Array.isArray(orgs) ? orgs.find((o) => o.ontology?.[kind] === 'base')?.accountId : undefined;
}

// ---------------------------------------------------------------- webhooks

/** `sha256=<hex>` over "<timestamp>.<body>", the interface's scheme. */
export function signature(secret: string, timestamp: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.`).update(body).digest('hex')}`;
}

/** The delivery with a new body (or headers), signed afresh as the target would (needs the secret). */
export function resign(
  d: ProxiedDelivery,
  secret: string,
  changes: { body?: Buffer; headers?: Record<string, string> } = {},
): ProxiedDelivery {
  const body = changes.body ?? d.body;
  const headers = { ...d.headers, ...changes.headers };
  const timestamp = headers['x-service-timestamp'] ?? String(Math.floor(Date.now() / 1000));
  return { ...d, body, headers: { ...headers, 'x-service-signature': signature(secret, timestamp, body) } };
}

/**
 * Learns each webhook token's signing secrets from the API answers that show them (create,
 * rotate-secret, a PUT adding a callBackUrl), and which receiver path each token posts to.
 * Its `observer` modifier changes nothing.
 */
export interface SecretBook {
  readonly observer: FaultModifier;
  /** The current secret of the token posting to this delivery's path. */
  current(deliveryUrl: string): string | undefined;
  /** Every secret that token had, oldest first. */
  history(deliveryUrl: string): readonly string[];
  /** The latest secret of a token by id. */
  ofToken(tokenId: string): string | undefined;
}

export function createSecretBook(): SecretBook {
  const secrets = new Map<string, string[]>();
  const pathOf = new Map<string, string>();
  const tokenAt = (deliveryUrl: string) => {
    const path = new URL(deliveryUrl, 'http://x').pathname;
    for (const [id, p] of pathOf) if (p === path) return id;
    return undefined;
  };
  const learn = (value: unknown, tokenIdFromUrl: string | undefined) => {
    if (Array.isArray(value)) {
      for (const v of value) learn(v, undefined);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const o = value as { id?: unknown; callBackUrl?: unknown; signingSecret?: unknown; token?: { id?: unknown } };
    const id = typeof o.id === 'string' ? o.id : tokenIdFromUrl;
    if (!id) return;
    if (typeof o.callBackUrl === 'string') {
      try {
        pathOf.set(id, new URL(o.callBackUrl).pathname);
      } catch {
        // not a URL: nothing to learn
      }
    }
    if (typeof o.signingSecret === 'string' && o.signingSecret !== '') {
      const list = secrets.get(id) ?? [];
      if (list.at(-1) !== o.signingSecret) list.push(o.signingSecret);
      secrets.set(id, list);
    }
  };
  return {
    observer: {
      name: 'secretBook',
      response(res, req) {
        if (res.status >= 200 && res.status < 300 && isJson(res) && /\/tokens(\/|$)/.test(urlOf(req).pathname)) {
          learn(readJson(res.body), /\/tokens\/([^/?]+)/.exec(urlOf(req).pathname)?.[1]);
        }
        return res;
      },
    },
    current: (url) => secrets.get(tokenAt(url) ?? '')?.at(-1),
    history: (url) => secrets.get(tokenAt(url) ?? '') ?? [],
    ofToken: (id) => secrets.get(id)?.at(-1),
  };
}

/** The parsed JSON body of a delivery ({items: [...]}) or undefined. */
export function deliveryItems(d: ProxiedDelivery): Item[] | undefined {
  const body = readJson(d.body) as { items?: unknown } | undefined;
  return Array.isArray(body?.items) ? (body.items as Item[]) : undefined;
}

/**
 * For a list whose pages count from 1 (conforming variations): page 0 or below is refused, other
 * pages are shifted down to the service's 0-based ones. Requests without `page` pass unchanged.
 */
export function pageFromOne(req: ProxiedRequest): ProxiedRequest {
  const url = urlOf(req);
  if (!url.searchParams.has('page')) return req;
  const page = Number(url.searchParams.get('page'));
  if (!Number.isInteger(page) || page < 1)
    return { ...req, answer: jsonAnswer(400, { status: 400, error: 'Bad Request', message: 'page counts from 1' }) };
  url.searchParams.set('page', String(page - 1));
  return { ...req, url: `${url.pathname}${url.search}` };
}
