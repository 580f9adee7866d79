// Test data on the target: items the suite creates in its own organisation, tagged with the run
// id (trcid, slug, title) and soft-deleted at the end of the run; helpers to read them back, to
// list with a query and to page through a list (by page number or keyset), and a run-scoped
// cache so that checks can share fixtures instead of writing the same items again.
//
//   const org = await findOwnOrganisation(ctx);
//   const event = await createItem(ctx, '/events', { wfstatus: 'approved' });
//   const pages = await pageByKeyset(ctx, '/events', { wfstatus: 'approved' }, { size: 3, token: 'full' });

import { PAGE_SIZE, WORKFLOW_STATUS, WORKFLOW_STATUSES, type WorkflowStatus } from '../../generated/constants.ts';
import type { HttpResponse, QueryValue, TokenChoice } from '../http/httpClient.ts';
import type { OpenStatus } from '../model/variants.ts';
import { OPEN_STATUSES, variantsOf } from '../model/variants.ts';
import type { UserOrganisation } from '../model/userOrganisations.ts';
import { userOrganisationEntries } from '../model/userOrganisations.ts';
import { CheckFailure, CheckUnobservable } from '../model/failure.ts';
import type { CheckContext } from '../engine/runtime/context.ts';
import { assertBodyIsArray, assertStatus, forgetUnknownOperation } from './assert.ts';
import type { Collection } from './collections.ts';
import { COLLECTIONS } from './collections.ts';

export type CollectionPath = Collection['path'];
export type WfStatus = WorkflowStatus;
export const WF_STATUSES: readonly WfStatus[] = [...WORKFLOW_STATUSES];
/** Every status, for a list query that must see everything the token may see. */
export const ALL_STATUSES = 'draft,readyforvalidation,approved,rejected,archived,deleted';

/** A TRCItem as the target returned it (open: unknown fields are kept). */
export type Item = Record<string, unknown> & {
  id?: string;
  trcid?: string;
  entitytype?: string;
  wfstatus?: string;
  lastupdated?: string;
};
export type Query = Record<string, QueryValue>;

type Ctx = Pick<CheckContext, 'http' | 'tokens' | 'config' | 'runId' | 'tag' | 'cleanup' | 'note'> &
  Partial<Pick<CheckContext, 'check'>>;

// ---------------------------------------------------------------- run-scoped fixtures

const fixtures = new Map<string, Promise<unknown>>();

/**
 * The value `make` produced the first time any check of this run asked for `key` (same target,
 * same run id). Checks share fixtures this way instead of writing the same items again; a
 * shared fixture must be treated as read-only. A failure is shared too (same root cause).
 */
export function runFixture<T>(
  ctx: Pick<CheckContext, 'runId' | 'config'>,
  key: string,
  make: () => Promise<T>,
): Promise<T> {
  const cacheKey = `${ctx.runId}\u0000${ctx.config.baseUrl ?? ''}\u0000${key}`;
  let value = fixtures.get(cacheKey) as Promise<T> | undefined;
  if (!value) {
    value = make();
    fixtures.set(cacheKey, value);
  }
  return value;
}

// ---------------------------------------------------------------- tokens and organisation

/**
 * The token the suite writes with: the one that sees every status (`--full-token`), else the
 * admin token, else the consumer token. It also reads back and cleans up what it wrote, so an
 * item written in a status a live token cannot see is still found and soft-deleted.
 */
export function writerToken(ctx: Pick<CheckContext, 'tokens'>): 'full' | 'admin' | 'consumer' {
  if (ctx.tokens.full) return 'full';
  if (ctx.tokens.admin) return 'admin';
  return 'consumer';
}

export type { UserOrganisation };

/** `GET /dictionary/userorganisations` (open to any valid token), as entries whatever the target's layout. */
export async function listUserOrganisations(
  ctx: Ctx,
  token: TokenChoice = writerToken(ctx),
): Promise<UserOrganisation[]> {
  const res = await ctx.http.get('/dictionary/userorganisations', { token });
  assertStatus(res, 200, { requirements: ['DICT-005'] });
  const shape = variantsOf(ctx).userOrganisationsShape;
  if (shape === 'array') return assertBodyIsArray(res, { requirements: ['DICT-005'] }) as UserOrganisation[];
  if (typeof res.body !== 'object' || res.body === null || Array.isArray(res.body)) {
    throw new CheckFailure({
      message:
        'GET /dictionary/userorganisations did not answer a map keyed by organisation (the layout discovered or declared)',
      received: res.text.slice(0, 200),
      expected: 'a JSON object',
      requirements: ['DICT-005'],
      exchanges: [res.exchange],
    });
  }
  return userOrganisationEntries(res.body, shape);
}

/**
 * The suite's own organisation: the first userorganisation of `--account-id` in
 * `GET /dictionary/userorganisations`. Undefined without `--account-id` (items are then written
 * without `userorganisation`, and the target puts them in the writing token's default one).
 */
export async function findOwnOrganisation(ctx: Ctx): Promise<string | undefined> {
  const accountId = ctx.config.accountId;
  if (!accountId) return undefined;
  return runFixture(ctx, `own-organisation:${accountId}`, async () => {
    const all = await listUserOrganisations(ctx);
    const own = all.find((o) => o.accountId === accountId);
    if (!own) {
      throw new CheckFailure({
        kind: 'error',
        message: `GET /dictionary/userorganisations lists no organisation of account ${accountId} (--account-id); the suite writes its test data there`,
        received: all.map((o) => `${o.userorganisation} (${o.accountId})`).join(', ') || '(none)',
        expected: `an entry with accountId ${accountId}`,
      });
    }
    return own.userorganisation;
  });
}

// ---------------------------------------------------------------- paths

export function collectionOf(path: CollectionPath): Collection {
  return COLLECTIONS.find((c) => c.path === path)!;
}

export function collectionOfEntityType(entitytype: string): Collection | undefined {
  return COLLECTIONS.find((c) => c.entitytype === entitytype);
}

export function detailPath(collection: CollectionPath, id: string): string {
  return `${collection}/${encodeURIComponent(id)}`;
}

// ---------------------------------------------------------------- creating items

export interface CreatedItem {
  collection: CollectionPath;
  id: string;
  trcid: string;
  /** `/events/<id>` */
  path: string;
  /** The item as the writer token reads it back right after the write. */
  item: Item;
  /** The POST answer. */
  created: HttpResponse;
  /** What was sent. */
  body: Record<string, unknown>;
  token: TokenChoice;
}

export interface CreateOptions {
  /** Tag label (`ctf-k3x9q2-<label>-<n>`); default: the entity type in lower case. */
  label?: string;
  token?: TokenChoice;
  /** Put the title tag into trcItemDetails when the draft has none. Default true. */
  title?: string;
  /** Set `userorganisation` to the suite's own organisation when the draft has none. Default true. */
  ownOrganisation?: boolean;
  /** The requirements a failed create is about (default: the check's). */
  requirements?: readonly string[];
}

/**
 * POST a draft to a collection, tagged with the run id: `trcid` and `slug` are a fresh tag and
 * the Dutch title starts with it, unless the draft sets them. Registers the soft delete at the
 * end of the run as soon as the id is known, then reads the item back with the same token.
 */
export async function createItem(
  ctx: Ctx,
  collection: CollectionPath,
  draft: Record<string, unknown> = {},
  options: CreateOptions = {},
): Promise<CreatedItem> {
  const token = options.token ?? writerToken(ctx);
  const { entitytype } = collectionOf(collection);
  const tag = ctx.tag(options.label ?? entitytype);
  const body: Record<string, unknown> = { trcid: tag, slug: tag, ...draft };
  if (body.trcItemDetails === undefined)
    body.trcItemDetails = [{ lang: 'nl', title: `${tag} ${options.title ?? 'conformance test item'}` }];
  if (body.userorganisation === undefined && options.ownOrganisation !== false) {
    const org = await findOwnOrganisation(ctx);
    if (org !== undefined) body.userorganisation = org;
  }
  const move = openStatusMove(ctx, body.wfstatus);
  // A status the target reaches only by PUT is written in two steps: created approved (a move the
  // interface names), then moved by PUT.
  const posted = move === 'put' ? { ...body, wfstatus: WORKFLOW_STATUS.approved } : body;
  const created = await ctx.http.post(collection, { json: posted, token, validate: 'defer' });
  const requirements = options.requirements;
  assertStatus(created, [200, 201], {
    requirements,
    message: `POST ${collection} answered ${created.status}; expected the item to be created`,
  });
  acknowledgeCreateAnswer(ctx, created, requirements);
  const trcid = typeof body.trcid === 'string' ? body.trcid : (created.body as Item | undefined)?.trcid;
  const id = await idOfCreated(ctx, collection, created, body, token, requirements);
  ctx.cleanup.softDelete(detailPath(collection, id), token);
  if (move === 'put') {
    const res = await putItem(ctx, { path: detailPath(collection, id), token }, body);
    if (res.status < 200 || res.status >= 300) {
      throw new CheckFailure({
        message: `PUT of an approved item with wfstatus ${String(body.wfstatus)} answered ${res.status}, though discovery found the target moves items there by PUT`,
        received: res.status,
        expected: '2xx',
        requirements,
        exchanges: [res.exchange],
      });
    }
    res.assertConforms(requirements);
  }
  const item = await readBack(ctx, collection, id, trcid, token, requirements);
  return {
    collection,
    id,
    trcid: String(item.trcid ?? trcid),
    path: detailPath(collection, id),
    item,
    created,
    body,
    token,
  };
}

/**
 * How the target reaches `status` when it is one the interface leaves open (rejected, archived,
 * deleted); 'post' for every other status. Throws CheckUnobservable when the target offers no
 * such move through the API: what the check wanted to see cannot be observed there.
 */
function openStatusMove(ctx: Ctx, status: unknown): 'post' | 'put' {
  if (!OPEN_STATUSES.includes(status as OpenStatus)) return 'post';
  const move = variantsOf(ctx).statusMoves[status as OpenStatus];
  if (move === 'unsupported')
    throw new CheckUnobservable(
      `the target moves no item into ${String(status)} through the API (the interface leaves that move open), so this cannot be observed here`,
    );
  return move;
}

/** Whether the target can put an item into `status` through the API (see the target variants). */
export function canReachStatus(ctx: Ctx, status: WfStatus): boolean {
  return (
    !OPEN_STATUSES.includes(status as OpenStatus) || variantsOf(ctx).statusMoves[status as OpenStatus] !== 'unsupported'
  );
}

/**
 * The create answer's shape beyond "created" is our decision (DEC-ITEM-002: 201, Location, the
 * stored item), so status, header and content-type problems of a 2xx answer are noted here and
 * judged by the decision check; a body that is there must still be a valid item.
 */
function acknowledgeCreateAnswer(ctx: Ctx, res: HttpResponse, requirements: readonly string[] | undefined): void {
  // "Response body of item creation: not shown": an empty answer is as good as the item.
  const emptyBody = res.bytes.length === 0;
  const decisionOnly =
    res.problems.length > 0 &&
    res.problems.every(
      (p) =>
        p.kind === 'status' || p.kind === 'header' || p.kind === 'content-type' || (emptyBody && p.kind === 'body'),
    );
  if (decisionOnly) {
    ctx.note(
      `POST ${new URL(res.url).pathname} answered ${res.status}: ${res.problems.map((p) => p.message).join('; ')} (DEC-ITEM-002)`,
    );
    try {
      res.assertConforms();
    } catch {
      // acknowledged: judged by items.create-answer
    }
    return;
  }
  res.assertConforms(itemProblemRequirements(ctx, res, requirements));
}

/** The rule behind each field of an item answer that the server alone decides. */
const SERVER_FIELD_RULES: Record<string, string> = {
  id: 'ITEM-002',
  trcid: 'ITEM-003',
  entitytype: 'ITEM-004',
  creationdate: 'ITEM-005',
  lastupdated: 'ITEM-006',
  wfstatus: 'WF-002',
};

/**
 * The requirements the spec problems of an item answer break: when every problem lies in a field
 * the server decides (a trcid left out, an id that is no UUID, a status outside the lifecycle; a
 * status named published is WF-003) and the check covers those rules, those rules; otherwise
 * `requirements` (a problem in what the client wrote is about the write).
 */
export function itemProblemRequirements(
  ctx: Partial<Pick<CheckContext, 'check'>>,
  res: HttpResponse,
  requirements?: readonly string[],
): readonly string[] | undefined {
  const rules = res.problems.map((p) => {
    const field = /^\/([^/]+)$/.exec(p.pointer ?? '')?.[1];
    if (field === 'wfstatus' && p.received === 'published') return 'WF-003';
    return field === undefined ? undefined : SERVER_FIELD_RULES[field];
  });
  if (rules.length === 0 || rules.some((r) => r === undefined)) return requirements;
  const broken = [...new Set(rules as string[])];
  return broken.every((r) => ctx.check?.requirements.includes(r)) ? broken : requirements;
}

async function idOfCreated(
  ctx: Ctx,
  collection: CollectionPath,
  res: HttpResponse,
  body: Record<string, unknown>,
  token: TokenChoice,
  requirements?: readonly string[],
): Promise<string> {
  const trcid = typeof body.trcid === 'string' ? body.trcid : (res.body as Item | undefined)?.trcid;
  const fromBody = (res.body as Item | undefined)?.id;
  if (typeof fromBody === 'string' && fromBody) return fromBody;
  const location = res.headers.location;
  if (location) {
    const last = new URL(location, res.url).pathname.split('/').filter(Boolean).at(-1);
    if (last) return decodeURIComponent(last);
  }
  if (trcid) {
    const found = await listItems(ctx, collection, { trcid, wfstatus: ALL_STATUSES }, { token });
    const id = found.items[0]?.id;
    if (typeof id === 'string') return id;
  }
  // Without a trcid (the target makes one) and without an answer naming the item: the newest
  // items, matched by the tagged title the suite wrote.
  const title = titleOf(body as Item);
  if (!trcid && title) {
    const recent = await listItems(
      ctx,
      collection,
      { wfstatus: ALL_STATUSES, sortField: 'lastupdated', sortOrder: 'DESC', size: 50 },
      { token },
    );
    const id = recent.items.find((i) => titleOf(i) === title)?.id;
    if (typeof id === 'string') return id;
  }
  throw new CheckFailure({
    message: `POST ${collection} created an item, but neither its answer (id, Location) nor a list by trcid ${trcid} names its id`,
    received: res.body ?? res.text.slice(0, 200),
    expected: 'the id of the created item',
    requirements,
    exchanges: [res.exchange],
  });
}

async function readBack(
  ctx: Ctx,
  collection: CollectionPath,
  id: string,
  trcid: string | undefined,
  token: TokenChoice,
  requirements?: readonly string[],
): Promise<Item> {
  const res = await ctx.http.get(detailPath(collection, id), { token, validate: 'defer' });
  if (res.status === 200 && res.body && typeof res.body === 'object') {
    res.assertConforms(itemProblemRequirements(ctx, res, requirements));
    return res.body as Item;
  }
  res.assertConforms(requirements);
  // A detail read of a deleted item is a 404 (DEC-ITEM-004); the list still has it.
  if (res.status === 404 && trcid) {
    const found = await listItems(ctx, collection, { trcid, wfstatus: ALL_STATUSES }, { token });
    if (found.items[0]) return found.items[0];
  }
  throw new CheckFailure({
    message: `the item just created (${collection}/${id}) cannot be read back with the token that wrote it`,
    received: res.status,
    expected: '200 with the item',
    requirements,
    exchanges: [res.exchange],
  });
}

/**
 * PUT `body` to an item where the target takes updates (the update path is not shown by the
 * interface): its detail URL, or its collection with the id in the body. Returns the answer.
 */
export async function putItem(
  ctx: Ctx,
  item: Pick<CreatedItem, 'path' | 'token'>,
  body: Record<string, unknown>,
  options: { token?: TokenChoice } = {},
): Promise<HttpResponse> {
  const token = options.token ?? item.token;
  if (variantsOf(ctx).updatePath === 'detail') return ctx.http.put(item.path, { json: body, token, validate: 'defer' });
  const slash = item.path.lastIndexOf('/');
  const id = decodeURIComponent(item.path.slice(slash + 1));
  const res = await ctx.http.put(item.path.slice(0, slash), { json: { ...body, id }, token, validate: 'defer' });
  forgetUnknownOperation(res);
  return res;
}

/**
 * Update an item the suite created: what it wrote, with `change` on top. Only fields the suite
 * means to write are sent, never a read-back body (a target may add fields of its own to what
 * it answers and refuse them on write).
 */
export async function updateItem(
  ctx: Ctx,
  item: Pick<CreatedItem, 'path' | 'token' | 'body'>,
  change: Record<string, unknown>,
  options: { token?: TokenChoice } = {},
): Promise<HttpResponse> {
  return putItem(ctx, item, { ...item.body, ...change }, options);
}

/** Read one item by its detail path; `undefined` on 404. */
export async function readItem(
  ctx: Ctx,
  path: string,
  token: TokenChoice = writerToken(ctx),
): Promise<{ res: HttpResponse; item: Item | undefined }> {
  const res = await ctx.http.get(path, { token, validate: 'defer' });
  return { res, item: res.status === 200 ? (res.body as Item) : undefined };
}

/** The item with this trcid, read through the list (every status the token may see). */
export async function findByTrcid(
  ctx: Ctx,
  collection: CollectionPath,
  trcid: string,
  token: TokenChoice = writerToken(ctx),
): Promise<Item | undefined> {
  return (await listItems(ctx, collection, { trcid, wfstatus: ALL_STATUSES }, { token })).items[0];
}

/** Root fields of a TRCItem the interface names as writable (server-set and deprecated ones left out). */
export const WRITABLE_FIELDS: readonly string[] = [
  'trcid',
  'slug',
  'entitytype',
  'wfstatus',
  'userorganisation',
  'trcItemDetails',
  'trcItemCategories',
  'calendar',
  'contactinfo',
  'files',
  'location',
  'translations',
  'seoMetadata',
  'priceElements',
  'promotions',
  'performers',
  'routeInfo',
  'trcitemRelation',
];

/**
 * The writable part of an item the suite did not write itself (e.g. one a feed imported): what
 * a GET-modify-PUT round trip sends. Only root fields the interface names are kept: server-set
 * fields would be ignored anyway (DEC-ITEM-005), and fields a target adds of its own may be
 * refused on write. Items the suite created are updated with updateItem instead.
 */
export function writableCopy(item: Item): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of WRITABLE_FIELDS) if (item[field] !== undefined) out[field] = structuredClone(item[field]);
  return out;
}

// ---------------------------------------------------------------- listing and paging

export interface ListOptions {
  token?: TokenChoice;
  /** `true` (default) fails on a spec problem at once; `'defer'` leaves it to the check. */
  validate?: true | 'defer';
  requirements?: readonly string[];
}

export interface ListAnswer {
  res: HttpResponse;
  items: Item[];
}

/** One list call; fails unless it answers 200 with a bare array. */
export async function listItems(
  ctx: Ctx,
  collection: CollectionPath,
  query: Query,
  options: ListOptions = {},
): Promise<ListAnswer> {
  const res = await ctx.http.get(collection, {
    query,
    token: options.token ?? writerToken(ctx),
    validate: options.validate ?? true,
  });
  assertStatus(res, 200, { requirements: options.requirements });
  return { res, items: assertBodyIsArray(res, { requirements: options.requirements }) as Item[] };
}

export interface PageOptions extends ListOptions {
  size: number;
  /** Stop (and fail) after this many pages: a target that never answers a short page must not loop. */
  maxPages?: number;
}

export interface Page extends ListAnswer {
  /** 0-based page number or keyset step. */
  index: number;
  /** The lastupdated bound sent (keyset), when there was one. */
  from?: string;
}

/**
 * `page=0,1,2,…` (from the target's first page number) with a fixed size until a page holds
 * fewer than `size` items (PAGE-001, PAGE-002).
 */
export async function pageByNumber(
  ctx: Ctx,
  collection: CollectionPath,
  query: Query,
  options: PageOptions,
): Promise<Page[]> {
  const pages: Page[] = [];
  const maxPages = options.maxPages ?? 50;
  const first = variantsOf(ctx).listFirstPage;
  for (let page = 0; ; page++) {
    const answer = await listItems(ctx, collection, { ...query, size: options.size, page: first + page }, options);
    pages.push({ ...answer, index: page });
    if (answer.items.length < options.size) return pages;
    if (pages.length >= maxPages) throw tooManyPages(collection, options, pages);
  }
}

/**
 * Keyset paging as the interface describes it (PAGE-003): `sortField=lastupdated`,
 * `sortOrder=ASC`, the last item's `lastupdated` as the next inclusive bound, until a short
 * page. The boundary items come back on the next page (PAGE-004); callers dedupe by id.
 * `from` starts at a bound. Fails if a full page does not advance the bound.
 */
export async function pageByKeyset(
  ctx: Ctx,
  collection: CollectionPath,
  query: Query,
  options: PageOptions & { from?: string },
): Promise<Page[]> {
  const pages: Page[] = [];
  const maxPages = options.maxPages ?? 50;
  let from = options.from;
  for (let step = 0; ; step++) {
    const answer = await listItems(
      ctx,
      collection,
      { ...query, sortField: 'lastupdated', sortOrder: 'ASC', size: options.size, lastupdated: from },
      options,
    );
    pages.push({ ...answer, index: step, from });
    if (answer.items.length < options.size) return pages;
    const last = answer.items.at(-1)?.lastupdated;
    if (typeof last !== 'string') {
      throw new CheckFailure({
        message: `keyset page ${step} of ${collection}: the last item has no lastupdated`,
        received: answer.items.at(-1),
        expected: 'an item with lastupdated',
        requirements: options.requirements,
        exchanges: [answer.res.exchange],
      });
    }
    if (from !== undefined && Date.parse(last) <= Date.parse(from)) {
      throw new CheckFailure({
        message: `keyset paging of ${collection} with size ${options.size} does not advance: a full page ends at the bound it started from (${from}); ${options.size} or more items share one lastupdated, or the order is not ascending`,
        received: last,
        expected: `a lastupdated later than ${from}`,
        requirements: options.requirements,
        exchanges: [answer.res.exchange],
      });
    }
    if (pages.length >= maxPages) throw tooManyPages(collection, options, pages);
    from = last;
  }
}

function tooManyPages(collection: CollectionPath, options: PageOptions, pages: Page[]): CheckFailure {
  return new CheckFailure({
    message: `${collection}: still full pages after ${pages.length} pages of ${options.size}; the suite stops here instead of paging on`,
    received: `${pages.length} full pages`,
    expected: 'a page holding fewer items than size',
    requirements: options.requirements,
    exchanges: [pages.at(-1)!.res.exchange],
  });
}

/** Items of the pages in order, each id once (keyset pages repeat the boundary item). */
export function distinctItems(pages: readonly Page[]): Item[] {
  const seen = new Set<string>();
  const out: Item[] = [];
  for (const page of pages) {
    for (const item of page.items) {
      const key = String(item.id ?? item.trcid);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(item);
    }
  }
  return out;
}

/** Only the items whose trcid is one of `trcids`, in the order they came. */
export function onlyThese(items: readonly Item[], trcids: Iterable<string>): Item[] {
  const wanted = new Set(trcids);
  return items.filter((i) => typeof i.trcid === 'string' && wanted.has(i.trcid));
}

/** The Dutch (else first) title of an item. */
export function titleOf(item: Item): string | undefined {
  const details = Array.isArray(item.trcItemDetails)
    ? (item.trcItemDetails as { lang?: string; title?: string }[])
    : [];
  return (details.find((d) => d.lang === 'nl') ?? details[0])?.title;
}

// ---------------------------------------------------------------- shared fixtures

export interface CatalogueEntry extends CreatedItem {
  /** The status written (undefined: none sent). */
  written: WfStatus | undefined;
  /** The status the target should store (draft and none normalise to readyforvalidation). */
  status: WfStatus;
}

export interface Catalogue {
  collection: CollectionPath;
  entries: CatalogueEntry[];
  /** lastupdated of the first entry as the target sent it: a lower bound of the whole catalogue. */
  from: string;
  /**
   * 1 ms before `from`: the bound the checks that are not about the inclusive filter use, so that
   * an exclusive lastupdated filter fails the checks about the filter (FILTER-001, PAGE-004), not every check.
   */
  before: string;
  trcids: string[];
}

/** Statuses written to the catalogue, in creation order (undefined: no wfstatus sent). */
export const CATALOGUE_STATUSES: readonly (WfStatus | undefined)[] = [
  WORKFLOW_STATUS.approved,
  WORKFLOW_STATUS.approved,
  undefined,
  WORKFLOW_STATUS.draft,
  WORKFLOW_STATUS.rejected,
  WORKFLOW_STATUS.archived,
  WORKFLOW_STATUS.deleted,
  WORKFLOW_STATUS.approved,
  WORKFLOW_STATUS.approved,
];
/** Title keys: pairs of equal titles for the id tiebreaker. */
const CATALOGUE_TITLES = ['a', 'a', 'b', 'b', 'c', 'c', 'd', 'e', 'f'];
const SLUG_LETTERS = 'zyxwvutsr';

/**
 * Nine event groups written once per run with the writer token, one after the other: four
 * approved, one with no wfstatus, one draft, one rejected, one archived, one deleted. Titles come
 * in equal pairs (`<run id> cat a`, …), trcids (`<run id>-cat-0` …) and slugs (reverse letters)
 * sort in known orders. Read-only for the checks that share it.
 */
export function catalogue(ctx: Ctx): Promise<Catalogue> {
  return runFixture(ctx, 'catalogue', async () => {
    const collection: CollectionPath = '/eventgroups';
    const entries: CatalogueEntry[] = [];
    for (const [i, written] of CATALOGUE_STATUSES.entries()) {
      if (written !== undefined && !canReachStatus(ctx, written)) continue;
      const draft: Record<string, unknown> = {
        trcid: `${ctx.runId}-cat-${i}`,
        slug: `${ctx.runId}-cat-${SLUG_LETTERS[i]}`,
        trcItemDetails: [{ lang: 'nl', title: `${ctx.runId} cat ${CATALOGUE_TITLES[i]}` }],
      };
      if (written !== undefined) draft.wfstatus = written;
      const created = await createItem(ctx, collection, draft);
      const status: WfStatus =
        written === undefined || written === WORKFLOW_STATUS.draft ? WORKFLOW_STATUS.readyforvalidation : written;
      entries.push({ ...created, written, status });
    }
    const from = entries[0]!.item.lastupdated;
    if (typeof from !== 'string') {
      throw new CheckFailure({
        message: 'the item just created has no lastupdated',
        received: entries[0]!.item,
        expected: 'lastupdated set by the server',
        requirements: ['ITEM-006'],
        exchanges: [entries[0]!.created.exchange],
      });
    }
    return {
      collection,
      entries,
      from,
      before: new Date(Date.parse(from) - 1).toISOString(),
      trcids: entries.map((e) => e.trcid),
    };
  });
}

/**
 * The catalogue entries in `status`; CheckUnobservable when the target moves no item there
 * through the API (the catalogue then has none, and the check cannot observe what it needs).
 */
export function catalogueEntries(cat: Catalogue, status: WfStatus): CatalogueEntry[] {
  const entries = cat.entries.filter((e) => e.status === status);
  if (entries.length === 0)
    throw new CheckUnobservable(
      `the target moves no item into ${status} through the API (the interface leaves that move open), so the catalogue has no ${status} item`,
    );
  return entries;
}

/**
 * The statuses among `statuses` the catalogue could place no item in: the target moves no item
 * there through the API (the interface leaves those moves open), so a rule about items in them
 * cannot be observed on this target.
 */
export function unplacedStatuses(cat: Catalogue, statuses: readonly WfStatus[]): WfStatus[] {
  return statuses.filter((s) => !cat.entries.some((e) => e.status === s || e.written === s));
}

/** Every catalogue item the full token lists: `lastupdated >= before`, all statuses, size 2000. */
export async function listCatalogue(
  ctx: Ctx,
  cat: Catalogue,
  query: Query = {},
  options: ListOptions = {},
): Promise<ListAnswer & { own: Item[] }> {
  const answer = await listItems(
    ctx,
    cat.collection,
    { lastupdated: cat.before, wfstatus: ALL_STATUSES, size: PAGE_SIZE.maximum, ...query },
    { token: writerToken(ctx), ...options },
  );
  return { ...answer, own: onlyThese(answer.items, cat.trcids) };
}

// ---------------------------------------------------------------- ontologies

export interface Ontologies {
  accountId: string;
  categorization: Record<string, unknown> & { categorizations?: unknown[] };
  properties: Record<string, unknown> & { propertyCategories?: unknown[] };
}

/** The type and property ontologies of the account that owns `userorganisation` (DICT-007). */
export function ownerOntologies(ctx: Ctx, userorganisation: string): Promise<Ontologies> {
  return runFixture(ctx, `ontologies:${userorganisation}`, async () => {
    const orgs = await listUserOrganisations(ctx);
    const owner = orgs.find((o) => o.userorganisation === userorganisation);
    if (!owner) {
      throw new CheckFailure({
        message: `GET /dictionary/userorganisations does not list ${userorganisation}, the organisation of an item`,
        received: orgs.map((o) => o.userorganisation).join(', '),
        expected: userorganisation,
        requirements: ['DICT-005', 'DICT-007'],
      });
    }
    const [categorization, properties] = await Promise.all([
      ctx.http.get('/dictionary/categorizationOntology', { query: { accountId: owner.accountId } }),
      ctx.http.get('/dictionary/propertiesOntology', { query: { accountId: owner.accountId } }),
    ]);
    assertStatus(categorization, 200, { requirements: ['DICT-001'] });
    assertStatus(properties, 200, { requirements: ['DICT-003'] });
    return {
      accountId: owner.accountId,
      categorization: categorization.body as Ontologies['categorization'],
      properties: properties.body as Ontologies['properties'],
    };
  });
}

export interface TypeNode {
  cnetID: string;
  categorization: string;
  entityType?: string;
  deprecated?: boolean;
  categorizationTranslations?: { lang: string; label: string }[];
  child?: TypeNode[];
}

/** Every type node with the entity type of its top-level node. */
export function typeNodes(ontology: Ontologies['categorization']): (TypeNode & { tree: string | undefined })[] {
  const out: (TypeNode & { tree: string | undefined })[] = [];
  const walk = (nodes: TypeNode[] | undefined, tree: string | undefined) => {
    for (const n of nodes ?? []) {
      const t = tree ?? n.entityType;
      out.push({ ...n, tree: t });
      walk(n.child, t);
    }
  };
  walk(ontology.categorizations as TypeNode[] | undefined, undefined);
  return out;
}

export interface PropertyNode {
  id: string;
  name: string;
  datatype: string;
  deprecated?: boolean;
  propertytranslations?: { lang: string; text: string }[];
  options?: {
    id: string;
    name: string;
    deprecated?: boolean;
    propertytranslations?: { lang: string; text: string }[];
  }[];
  properties?: PropertyNode[];
}

/** Every property (nested ones too) of a property ontology. */
export function propertyNodes(ontology: Ontologies['properties']): PropertyNode[] {
  const out: PropertyNode[] = [];
  const walk = (nodes: PropertyNode[] | undefined) => {
    for (const n of nodes ?? []) {
      out.push(n);
      walk(n.properties);
    }
  };
  for (const c of (ontology.propertyCategories ?? []) as { properties?: PropertyNode[] }[]) walk(c.properties);
  return out;
}

/** One minimal item per collection, shared by the checks of a run: a tagged title and nothing else (every field is optional on write). */
export function minimalItems(ctx: Ctx): Promise<CreatedItem[]> {
  return runFixture(ctx, 'minimal-items', async () => {
    const out: CreatedItem[] = [];
    for (const { path } of COLLECTIONS)
      out.push(
        await createItem(
          ctx,
          path,
          { trcid: undefined, slug: undefined },
          { label: 'minimal', requirements: ['WRITE-001', 'ITEM-021'] },
        ),
      );
    return out;
  });
}
