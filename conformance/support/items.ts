// Writing items on the target: items the suite creates in its own organisation, tagged with the
// run id (trcid, slug, title) and soft-deleted at the end of the run, updates where the target
// takes them, and reading them back. Listing and paging: lists.ts; shared fixtures: sharedItems.ts.
//
//   const event = await createItem(ctx, '/events', { wfstatus: 'approved' });
//   await updateItem(ctx, event, { wfstatus: 'archived' });

import { WORKFLOW_STATUS } from '../../generated/constants.ts';
import type { HttpResponse, TokenChoice } from '../http/httpClient.ts';
import type { OpenStatus } from '../model/variants.ts';
import { OPEN_STATUSES, variantsOf } from '../model/variants.ts';
import { CheckFailure, CheckUnobservable } from '../model/failure.ts';
import type { CheckContext } from '../engine/runtime/context.ts';
import { assertStatus, forgetUnknownOperation } from './assert.ts';
import type { CollectionPath, Ctx, Item, WfStatus } from './itemTypes.ts';
import { ALL_STATUSES, collectionOf, detailPath } from './itemTypes.ts';
import { listItems, titleOf } from './lists.ts';
import { findOwnOrganisation, writerToken } from './organisations.ts';

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
  /**
   * When the target refuses the draft (4xx, a conforming answer): the draft to send instead, or
   * undefined to fail (e.g. the draft without the places our decisions shape).
   */
  onRefused?: (refusal: HttpResponse) => Record<string, unknown> | undefined;
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
  const tagged = async (sent: Record<string, unknown>) => {
    const out: Record<string, unknown> = { trcid: tag, slug: tag, ...sent };
    if (out.trcItemDetails === undefined)
      out.trcItemDetails = [{ lang: 'nl', title: `${tag} ${options.title ?? 'conformance test item'}` }];
    if (out.userorganisation === undefined && options.ownOrganisation !== false) {
      const org = await findOwnOrganisation(ctx);
      if (org !== undefined) out.userorganisation = org;
    }
    return out;
  };
  // A status the target reaches only by PUT is written in two steps: created approved (a move the
  // interface names), then moved by PUT.
  const post = (sent: Record<string, unknown>) =>
    ctx.http.post(collection, {
      json: openStatusMove(ctx, sent.wfstatus) === 'put' ? { ...sent, wfstatus: WORKFLOW_STATUS.approved } : sent,
      token,
      validate: 'defer',
    });
  const requirements = options.requirements;
  let body = await tagged(draft);
  let created = await post(body);
  const instead = created.status >= 400 && created.status < 500 ? options.onRefused?.(created) : undefined;
  if (instead) {
    created.assertConforms(requirements);
    body = await tagged(instead);
    created = await post(body);
  }
  const move = openStatusMove(ctx, body.wfstatus);
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
