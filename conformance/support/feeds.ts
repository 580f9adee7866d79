// The feed import checks: the suite serves partner entries on its partner endpoint (the feed
// --feed-id fetches it), runs the feed with POST /feeds/{feedID}/fetchAndConvertOnce (admin
// token), follows an asynchronous run to its end, and finds what the run imported by the partner
// ids it served. Partner ids are tags of the run id (`ctf-k3x9q2-feed-new-3`), so a run's items
// never meet another run's. Everything a feed check imports is soft-deleted at the end of the run.
//
//   const { partner } = feed(ctx);
//   partner.serve([feedEvent(id)]);
//   const run = await runFeed(ctx, { size: 1 });
//   const items = await findImported(ctx, run, [id]);

import { ENTITY_TYPE, PAGE_SIZE, WORKFLOW_STATUS } from '../../generated/constants.ts';
import type { HttpResponse, QueryValue } from '../http/httpClient.ts';
import { CheckFailure } from '../model/failure.ts';
import type { FeedPartner, PartnerEntry } from '../partner/feedPartner.ts';
import type { CheckContext } from '../engine/runtime/context.ts';
import { DEFAULT_FEED_INFO_ID } from '../config/config.ts';
import { assertStatus } from './assert.ts';
import type { Item } from './itemTypes.ts';
import { ALL_STATUSES, detailPath } from './itemTypes.ts';
import { listItems } from './lists.ts';
import { runFixture } from './fixtures.ts';
import { writerToken } from './organisations.ts';

type Ctx = Pick<
  CheckContext,
  'http' | 'tokens' | 'config' | 'runId' | 'tag' | 'cleanup' | 'note' | 'feedPartner' | 'sleep' | 'check'
>;

export interface FeedRunReport {
  runId: string;
  feedId: string;
  status: 'running' | 'completed' | 'failed' | string;
  startedAt: string;
  finishedAt?: string;
  fetched: number;
  converted: number;
  imported: { created: number; updated: number; unchanged: number };
  skipped: number;
  unmappedCategories: { externalId: string; value: string }[];
  errors: { externalId?: string; message: string }[];
}

/** The run's feed: its id, the partner endpoint, and (once per run) the cleanup of what it imported. */
export function feed(ctx: Ctx): { id: string; partner: FeedPartner; path: string; subFeed: string } {
  const id = ctx.config.feedId;
  if (!id) throw new Error(`${ctx.check.id} runs the feed; declare needs: ['feed']`);
  const partner = ctx.feedPartner;
  void runFixture(ctx, 'feed-sweep', async () => {
    ctx.cleanup.add('soft-delete every item the feed imported for this run', async (http) => {
      partner.clear();
      const since = firstRunStart.get(ctx.runId);
      if (since === undefined) return;
      const token = writerToken(ctx);
      const res = await http.get('/events', {
        query: { lastupdated: since, wfstatus: ALL_STATUSES, size: PAGE_SIZE.maximum },
        token,
        validate: false,
      });
      if (res.status !== 200 || !Array.isArray(res.body))
        throw new Error(`GET /events (items the feed imported) answered ${res.status}`);
      for (const item of res.body as Item[]) {
        if (
          typeof item.externalId !== 'string' ||
          !item.externalId.includes(ctx.runId) ||
          item.wfstatus === WORKFLOW_STATUS.deleted ||
          typeof item.id !== 'string'
        )
          continue;
        const del = await http.delete(detailPath('/events', item.id), { token, validate: false });
        if (del.status >= 300 && del.status !== 404)
          throw new Error(`DELETE /events/${item.id} answered ${del.status}`);
      }
    });
  });
  return {
    id,
    partner,
    path: `/feeds/${encodeURIComponent(id)}/fetchAndConvertOnce`,
    subFeed: ctx.config.feedInfoId ?? DEFAULT_FEED_INFO_ID,
  };
}

/** Earliest bound of a feed run of each suite run: the cleanup sweeps items changed since. */
const firstRunStart = new Map<string, string>();
export function noteRunBound(runId: string, bound: string): void {
  const known = firstRunStart.get(runId);
  if (known === undefined || Date.parse(bound) < Date.parse(known)) firstRunStart.set(runId, bound);
}

/** A partner id tagged with the run id. */
export function partnerId(ctx: Pick<CheckContext, 'tag'>, label: string): string {
  return ctx.tag(`feed-${label}`);
}

export interface EventVersion {
  title?: string;
  description?: string;
  /** The single date, `YYYY-MM-DD`. */
  date?: string;
  price?: number;
  city?: string;
  /** File name stem of the one attached photo. */
  file?: string;
}

/** A valid partner entry for an event (DEC-FEED-001): every field the feed rules are about has a value. */
export function feedEvent(id: string, v: EventVersion = {}, extra: Record<string, unknown> = {}): PartnerEntry {
  const file = v.file ?? 'eerste';
  return {
    id,
    entitytype: ENTITY_TYPE.EVENEMENT,
    trcItemDetails: [
      {
        lang: 'nl',
        title: v.title ?? `${id} titel van de partner`,
        shortdescription: v.description ?? `${id} beschrijving van de partner`,
      },
    ],
    calendar: {
      calendarType: 'SINGLEDATES',
      singleDates: [{ date: `${v.date ?? '2027-05-01'}T00:00:00`, when: [{ timestart: '10:00', timeend: '12:00' }] }],
    },
    priceElements: [
      {
        from: v.price ?? 10,
        till: v.price ?? 10,
        description: { value: 'adult', priceDescriptionValue: 'Volwassenen' },
      },
    ],
    location: { address: { city: v.city ?? 'Amsterdam' } },
    // No file title: its shape is not shown (a string before, the model's {label} now, DEC-ITEM-162).
    files: [
      {
        hlink: `https://partner.conformance.example/${encodeURIComponent(id)}/${file}.jpg`,
        filename: `${file}.jpg`,
        filetype: 'jpg',
        mediatype: 'photo',
      },
    ],
    ...extra,
  };
}

// ---------------------------------------------------------------- reading an item's fields

function nlDetail(item: Item): { title?: string; shortdescription?: string } | undefined {
  const details = Array.isArray(item.trcItemDetails)
    ? (item.trcItemDetails as { lang?: string; title?: string; shortdescription?: string }[])
    : [];
  return details.find((d) => d.lang === 'nl') ?? details[0];
}

/** What the feed rules are about, as read back: compare with `expectedFields(version)`. */
export function fieldsOf(item: Item): Required<Record<keyof EventVersion, unknown>> {
  const calendar = item.calendar as { singleDates?: { date?: string }[] } | undefined;
  const price = (item.priceElements as { from?: number }[] | undefined)?.[0];
  const files = item.files as { filename?: string }[] | undefined;
  return {
    title: nlDetail(item)?.title,
    description: nlDetail(item)?.shortdescription,
    date: calendar?.singleDates?.map((d) => String(d.date).slice(0, 10)).join(','),
    price: price?.from,
    city: (item.location as { address?: { city?: string } } | undefined)?.address?.city,
    file: files?.map((f) => String(f.filename).replace(/\.jpg$/, '')).join(','),
  };
}

/** The fields `feedEvent(id, v)` gives, in the form `fieldsOf` reads them. */
export function expectedFields(id: string, v: EventVersion = {}): Required<Record<keyof EventVersion, unknown>> {
  return {
    title: v.title ?? `${id} titel van de partner`,
    description: v.description ?? `${id} beschrijving van de partner`,
    date: v.date ?? '2027-05-01',
    price: v.price ?? 10,
    city: v.city ?? 'Amsterdam',
    file: v.file ?? 'eerste',
  };
}

/** The fields of `fields` whose value differs from `want`. */
export function differing(
  fields: Record<string, unknown>,
  want: Record<string, unknown>,
  only: readonly string[] = Object.keys(want),
): string[] {
  return only.filter((k) => fields[k] !== want[k]);
}

// ---------------------------------------------------------------- running the feed

export interface FeedRun {
  /** The POST answer. */
  res: HttpResponse;
  /** The run as it ended (the 200 report, or the followed run). */
  report: FeedRunReport;
  /** The target answered before the run ended (202) and the suite followed it. */
  async: boolean;
  /** Lower bound for the lastupdated of what the run wrote: its start, less a second for clock grain. */
  since: string;
  /** The GETs of the run while it was followed. */
  polls: HttpResponse[];
  /** Epoch milliseconds: the POST was sent, its answer arrived. */
  sentAt: number;
  answeredAt: number;
}

export interface RunFeedOptions {
  /** The requirements a failed run is about (default: the check's). */
  requirements?: readonly string[];
  /** What spec problems of the run answers are about (default DEC-FEED-002: the run report). */
  reportRequirements?: readonly string[];
  /** Longest wait for an asynchronous run to end (default 60 s). */
  waitMs?: number;
  /** Sees an answer other than 200/202 first (e.g. to skip on a 400 the check expects). */
  onRefused?: (res: HttpResponse) => void;
  /** Return a run that ended `failed` instead of failing the check (a partner failing on purpose). */
  allowFailed?: boolean;
}

const POLL_MS = 200;

/**
 * POST fetchAndConvertOnce with `query` (admin token). A 200 is the finished run; a 202 is
 * followed at its Location until it is no longer running. Fails when the run did not complete
 * (the feed could not fetch the partner: a wrong URL, an untrusted certificate).
 */
export async function runFeed(
  ctx: Ctx,
  query: Record<string, QueryValue>,
  options: RunFeedOptions = {},
): Promise<FeedRun> {
  const { path, partner } = feed(ctx);
  const reportRequirements = options.reportRequirements ?? ['DEC-FEED-002'];
  const sentAt = Date.now();
  noteRunBound(ctx.runId, new Date(sentAt - 5000).toISOString());
  const res = await ctx.http.post(path, { query, token: 'admin', validate: 'defer' });
  const answeredAt = Date.now();
  if (res.status !== 200 && res.status !== 202) options.onRefused?.(res);
  assertStatus(res, [200, 202], {
    requirements: options.requirements,
    message: `POST ${path}${queryText(query)} answered ${res.status}; expected the run (200, or 202 for a run still going)`,
  });
  res.assertConforms(reportRequirements);
  let report = res.body as FeedRunReport;
  const polls: HttpResponse[] = [];
  const async = res.status === 202 || report.status === 'running';
  if (async) report = await followRun(ctx, res, report, polls, options, reportRequirements);
  if (report.status !== 'completed' && !(options.allowFailed && report.status === 'failed')) {
    const seen = partner.requests.filter((r) => r.receivedAt >= sentAt);
    throw new CheckFailure({
      message:
        `the feed run of POST ${path}${queryText(query)} ended ${report.status}: ${report.errors?.[0]?.message ?? 'no error given'}. ` +
        (seen.length === 0
          ? `The partner endpoint ${partner.url} saw no request: is the feed's URL the partner's, and does the feed trust its certificate?`
          : `The partner endpoint answered ${seen.map((r) => `${r.path} ${r.status}`).join(', ')}.`),
      received: report.status,
      expected: 'completed',
      pointer: '/status',
      requirements: options.requirements,
      exchanges: [res.exchange, ...polls.slice(-1).map((p) => p.exchange)],
    });
  }
  const since = runBound(ctx, sentAt, report);
  return { res, report, async, since, polls, sentAt, answeredAt };
}

/** GET the run at the answer's Location (else feeds/{feedID}/runs/{runId}) until it is no longer running. */
export async function followRun(
  ctx: Ctx,
  res: HttpResponse,
  first: FeedRunReport,
  polls: HttpResponse[],
  options: RunFeedOptions,
  reportRequirements: readonly string[],
): Promise<FeedRunReport> {
  const { id } = feed(ctx);
  const location =
    res.headers.location ??
    (first?.runId ? `/feeds/${encodeURIComponent(id)}/runs/${encodeURIComponent(first.runId)}` : undefined);
  if (location === undefined) {
    throw new CheckFailure({
      message: 'the feed run answered 202 without a Location and without a runId: the suite cannot follow it',
      received: res.headers,
      expected: 'Location: …/feeds/{feedID}/runs/{runId}',
      pointer: 'headers/location',
      requirements: reportRequirements,
      exchanges: [res.exchange],
    });
  }
  const runPath = pathOf(ctx, location);
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  let report = first;
  while (Date.now() < deadline) {
    await ctx.sleep(POLL_MS);
    const poll = await ctx.http.get(runPath, { token: 'admin', validate: 'defer' });
    polls.push(poll);
    assertStatus(poll, 200, {
      requirements: reportRequirements,
      message: `GET ${runPath} (the run of the 202) answered ${poll.status}`,
    });
    poll.assertConforms(reportRequirements);
    report = poll.body as FeedRunReport;
    if (report.status !== 'running') return report;
  }
  throw new CheckFailure({
    message: `the feed run at ${runPath} is still running after ${(options.waitMs ?? 60_000) / 1000} s`,
    received: report,
    expected: 'status completed',
    pointer: '/status',
    requirements: options.requirements,
    exchanges: [polls.at(-1)!.exchange],
  });
}

/** Lower bound for the lastupdated of what a run wrote: its start (or when it was asked for), less a second for clock grain. */
export function runBound(
  ctx: Pick<CheckContext, 'runId'>,
  sentAt: number,
  report: Pick<FeedRunReport, 'startedAt'> | undefined,
): string {
  const started = Date.parse(report?.startedAt ?? '');
  const since = new Date((Number.isFinite(started) ? Math.min(started, sentAt) : sentAt) - 1000).toISOString();
  noteRunBound(ctx.runId, since);
  return since;
}

/** A Location (absolute, or a path) as a path under the base URL. */
function pathOf(ctx: Ctx, location: string): string {
  const base = new URL(`${ctx.config.baseUrl}/`);
  const url = new URL(location, base);
  return url.pathname.startsWith(base.pathname)
    ? `/${url.pathname.slice(base.pathname.length)}${url.search}`
    : `${url.pathname}${url.search}`;
}

function queryText(query: Record<string, QueryValue>): string {
  const entries = Object.entries(query).filter(([, v]) => v !== undefined);
  return entries.length === 0 ? '' : `?${entries.map(([k, v]) => `${k}=${String(v)}`).join('&')}`;
}

// ---------------------------------------------------------------- finding what a run imported

/**
 * Whether `externalId` is the one of partner id `id`: it ends with it. Whether it also holds the
 * feed's name (ITEM-016) is judged on its own, so an item lacking it is still found.
 */
export function isExternalIdOf(externalId: unknown, id: string): boolean {
  return typeof externalId === 'string' && externalId.endsWith(id);
}

export interface Imported {
  /** Partner id → the item whose externalId is its (the first when several are). */
  items: Map<string, Item>;
  /** Partner id → every item with its externalId (one, unless the target made a second). */
  all: Map<string, Item[]>;
  res: HttpResponse;
}

/**
 * The events changed since `since` (a run's bound) whose externalId belongs to one of `ids`,
 * read with the writer token (every status). Each is soft-deleted at the end of the run.
 */
export async function findImported(
  ctx: Ctx,
  since: string | FeedRun,
  ids: readonly string[],
  requirements?: readonly string[],
): Promise<Imported> {
  const bound = typeof since === 'string' ? since : since.since;
  const { res, items } = await listItems(
    ctx,
    '/events',
    { lastupdated: bound, wfstatus: ALL_STATUSES, size: PAGE_SIZE.maximum },
    { requirements },
  );
  const all = new Map<string, Item[]>();
  for (const item of items) {
    const id = ids.find((i) => isExternalIdOf(item.externalId, i));
    if (id === undefined) continue;
    all.set(id, [...(all.get(id) ?? []), item]);
    if (typeof item.id === 'string') softDeleteOnce(ctx, detailPath('/events', item.id));
  }
  return { items: new Map([...all].map(([id, list]) => [id, list[0]!])), all, res };
}

const scheduled = new Set<string>();
function softDeleteOnce(ctx: Ctx, path: string): void {
  const key = `${ctx.runId}\u0000${path}`;
  if (scheduled.has(key)) return;
  scheduled.add(key);
  ctx.cleanup.softDelete(path, writerToken(ctx));
}

/** The item of partner id `id` after `run`, or a failure saying the run did not import it. */
export function importedItem(
  found: Imported,
  run: FeedRun,
  id: string,
  requirements: readonly string[],
  what = 'the entry',
): Item {
  const item = found.items.get(id);
  if (item) return item;
  throw new CheckFailure({
    message: `after the feed run, no event has an externalId ending in ${id} (${what}); the run reported ${JSON.stringify(run.report.imported)}, errors ${JSON.stringify(run.report.errors.slice(0, 3))}. The feed's userorganisation must be one the writer token (--full-token) sees`,
    received: `${found.res.body instanceof Array ? found.res.body.length : 0} events changed since ${run.since}, none of them this entry's`,
    expected: `an event with externalId <feed name>:${id}`,
    requirements,
    exchanges: [run.res.exchange, found.res.exchange],
  });
}

/** Read an item again by its id (writer token); fails when it is gone. */
export async function reread(
  ctx: Ctx,
  item: Item,
  requirements: readonly string[],
): Promise<{ item: Item; res: HttpResponse }> {
  const path = detailPath('/events', String(item.id));
  const res = await ctx.http.get(path, { token: writerToken(ctx) });
  assertStatus(res, 200, { requirements, message: `GET ${path} (an item the feed imported) answered ${res.status}` });
  return { item: res.body as Item, res };
}

// ---------------------------------------------------------------- the feed's name

const learntNames = new Map<string, string>();

/**
 * The feed's name as externalIds show it (`<name>:<partner id>`, DEC-FEED-003): --feed-name,
 * else learnt from the first imported item whose externalId has that form; undefined until then.
 */
export function feedName(
  ctx: Pick<CheckContext, 'config' | 'runId'>,
  learnFrom?: { externalId: unknown; id: string },
): string | undefined {
  if (ctx.config.feedName) return ctx.config.feedName;
  const key = `${ctx.runId}\u0000${ctx.config.baseUrl ?? ''}`;
  const known = learntNames.get(key);
  if (known !== undefined || learnFrom === undefined) return known;
  const { externalId, id } = learnFrom;
  if (typeof externalId !== 'string' || !externalId.endsWith(`:${id}`) || externalId.length === id.length + 1)
    return undefined;
  const name = externalId.slice(0, -id.length - 1);
  learntNames.set(key, name);
  return name;
}
