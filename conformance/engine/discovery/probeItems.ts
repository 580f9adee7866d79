// Discovers how the target writes items: how a created item is found (the answer's body, its
// Location header, or the list filtered by trcid), where PUT goes (the detail URL or the
// collection with the id in the body), and how an item reaches rejected, archived and deleted
// (POST with that status, PUT of an approved item, or not through the API at all).

import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import type { HttpResponse } from '../../http/httpClient.ts';
import type { ProbeContext, ProbeFinding } from './probe.ts';
import { finding, is2xx } from './probe.ts';
import { isObject } from '../../../spec/json.ts';
import type { CreatedItemLocator, OpenStatus, StatusMove, UpdatePath } from '../../model/variants.ts';
import { OPEN_STATUSES } from '../../model/variants.ts';

const COLLECTION = '/events';
const ALL_STATUSES = 'draft,readyforvalidation,approved,rejected,archived,deleted';

interface ProbeItem {
  id: string;
  trcid: string;
  body: Record<string, unknown>;
}

function draft(ctx: ProbeContext, label: string, organisation: string | undefined, wfstatus?: string) {
  const trcid = ctx.tag(label);
  return {
    trcid,
    slug: trcid,
    trcItemDetails: [{ lang: 'nl', title: `${trcid} conformance discovery item` }],
    ...(organisation === undefined ? {} : { userorganisation: organisation }),
    ...(wfstatus === undefined ? {} : { wfstatus }),
  };
}

async function byTrcid(ctx: ProbeContext, trcid: string): Promise<Record<string, unknown> | undefined> {
  const res = await ctx.http.get(COLLECTION, {
    token: ctx.writer,
    query: { trcid, wfstatus: ALL_STATUSES },
    validate: false,
  });
  const items = Array.isArray(res.body) ? (res.body as unknown[]) : [];
  return items.filter(isObject).find((i) => i.trcid === trcid);
}

function idFromLocation(res: HttpResponse): string | undefined {
  const location = res.headers.location;
  if (!location) return undefined;
  const last = new URL(location, res.url).pathname.split('/').filter(Boolean).at(-1);
  return last ? decodeURIComponent(last) : undefined;
}

/** POST a probe item; its id and how it was found, or undefined when the target did not create it. */
async function create(
  ctx: ProbeContext,
  body: Record<string, unknown>,
): Promise<{ item: ProbeItem; locator: CreatedItemLocator; res: HttpResponse } | { res: HttpResponse }> {
  const res = await ctx.http.post(COLLECTION, { token: ctx.writer, json: body, validate: false });
  if (!is2xx(res.status)) return { res };
  const trcid = body.trcid as string;
  let id: string | undefined;
  let locator: CreatedItemLocator | undefined;
  if (isObject(res.body) && typeof res.body.id === 'string' && res.body.id !== '') {
    id = res.body.id;
    locator = 'answer-body';
  } else if ((id = idFromLocation(res))) {
    locator = 'location-header';
  } else {
    const found = await byTrcid(ctx, trcid);
    if (typeof found?.id === 'string') {
      id = found.id;
      locator = 'trcid-lookup';
    }
  }
  if (id === undefined || locator === undefined) return { res };
  const path = `${COLLECTION}/${encodeURIComponent(id)}`;
  ctx.cleanup(`soft-delete ${path}`, async () => {
    await ctx.http.delete(path, { token: ctx.writer, validate: false });
  });
  return { item: { id, trcid, body }, locator, res };
}

async function put(
  ctx: ProbeContext,
  item: ProbeItem,
  path: UpdatePath,
  change: Record<string, unknown>,
): Promise<HttpResponse> {
  const json = { ...item.body, ...change };
  return path === 'detail'
    ? ctx.http.put(`${COLLECTION}/${encodeURIComponent(item.id)}`, { token: ctx.writer, json, validate: false })
    : ctx.http.put(COLLECTION, { token: ctx.writer, json: { ...json, id: item.id }, validate: false });
}

/** The stored status of a probe item (read through the list: detail reads of some statuses may 404). */
async function statusOf(ctx: ProbeContext, trcid: string): Promise<string | undefined> {
  const found = await byTrcid(ctx, trcid);
  return typeof found?.wfstatus === 'string' ? found.wfstatus : undefined;
}

export async function probeItems(ctx: ProbeContext, organisation: string | undefined): Promise<ProbeFinding> {
  const out = finding();
  const first = await create(ctx, draft(ctx, 'probe-create', organisation));
  if (!('item' in first)) {
    out.notes.createdItem = `POST ${COLLECTION} answered ${first.res.status} and named no item; the default applies`;
    return out;
  }
  out.found.createdItem = first.locator;
  out.notes.createdItem = `POST ${COLLECTION} answered ${first.res.status}; the item was found by ${first.locator}`;

  let updatePath: UpdatePath | undefined;
  const tried: string[] = [];
  for (const path of ['detail', 'collection'] as const) {
    const title = `${first.item.trcid} updated through ${path}`;
    const res = await put(ctx, first.item, path, { trcItemDetails: [{ lang: 'nl', title }] });
    tried.push(`PUT ${path === 'detail' ? `${COLLECTION}/{id}` : COLLECTION} → ${res.status}`);
    if (!is2xx(res.status)) continue;
    const stored = await byTrcid(ctx, first.item.trcid);
    const details = Array.isArray(stored?.trcItemDetails) ? (stored.trcItemDetails as unknown[]) : [];
    if (details.some((d) => isObject(d) && d.title === title)) {
      updatePath = path;
      break;
    }
    tried.push(`(the new title was not stored)`);
  }
  if (updatePath) out.found.updatePath = updatePath;
  out.notes.updatePath = tried.join(', ');

  const moves: Partial<Record<OpenStatus, StatusMove>> = {};
  const seen: string[] = [];
  for (const status of OPEN_STATUSES) {
    const move = await probeStatusMove(ctx, organisation, status, updatePath ?? 'detail');
    seen.push(`${status}: ${move.note}`);
    if (move.move) moves[status] = move.move;
  }
  if (Object.keys(moves).length > 0) out.found.statusMoves = moves as Record<OpenStatus, StatusMove>;
  out.notes.statusMoves = seen.join('; ');
  return out;
}

async function probeStatusMove(
  ctx: ProbeContext,
  organisation: string | undefined,
  status: OpenStatus,
  updatePath: UpdatePath,
): Promise<{ move?: StatusMove; note: string }> {
  const posted = await create(ctx, draft(ctx, `probe-${status}`, organisation, status));
  if ('item' in posted) {
    const stored = await statusOf(ctx, posted.item.trcid);
    if (stored === status) return { move: 'post', note: `POST with wfstatus ${status} stores it` };
    if (stored === undefined) return { note: `the writer token cannot read back a ${status} item` };
  }
  const postNote = `POST with wfstatus ${status} → ${posted.res.status}`;
  const approved = await create(ctx, draft(ctx, `probe-${status}-put`, organisation, WORKFLOW_STATUS.approved));
  if (!('item' in approved)) return { note: `${postNote}; POST of an approved item → ${approved.res.status}` };
  const res = await put(ctx, approved.item, updatePath, { wfstatus: status });
  if (is2xx(res.status)) {
    const stored = await statusOf(ctx, approved.item.trcid);
    if (stored === status) return { move: 'put', note: `${postNote}; PUT of an approved item stores it` };
    if (stored === undefined) return { note: `${postNote}; the writer token cannot read back a ${status} item` };
  }
  return { move: 'unsupported', note: `${postNote}; PUT of an approved item → ${res.status}` };
}
