// Keyset paging over a list endpoint, as the interface's paging rule states it (PAGE-001..005):
// sort by `lastupdated` ascending, pass the last item's `lastupdated` as the next inclusive
// lower bound, stop at the first page holding fewer than `size` items.
//
// Because the bound is inclusive, each page starts with the items at the previous page's last
// stamp again. They are recognised (same trcid, same stamp) and left out of `fresh`.

import { PAGE_SIZE } from '../../generated/constants.ts';
import { parseJson } from '../../spec/json.ts';
import { compareParsed, parseInstant, type Instant } from './instant.ts';
import { pageElements } from './pageKeys.ts';
import type { Collection, ItemSource, ListItemsQuery, SyncItem, WfStatus } from './types.ts';

export const MIN_SYNC_SIZE = 2;
export const MAX_PAGE_SIZE = PAGE_SIZE.maximum;

/**
 * `size` must be 2…2000. With size 1 the loop never ends: the inclusive bound returns the
 * previous page's last item as the only item of the next page, a full page again, forever.
 */
export function assertSyncSize(size: number): void {
  if (!Number.isInteger(size) || size < MIN_SYNC_SIZE || size > MAX_PAGE_SIZE) {
    throw new RangeError(
      `size must be an integer from ${MIN_SYNC_SIZE} to ${MAX_PAGE_SIZE} (received: ${size}); ` +
        'size 1 never terminates because the inclusive lastupdated bound returns the boundary item again as a full page',
    );
  }
}

/** A page of `size` items that all share one `lastupdated`: the bound cannot move past it. */
export class LastUpdatedTieError extends Error {
  readonly collection: Collection;
  readonly lastupdated: string;
  readonly size: number;
  constructor(collection: Collection, lastupdated: string, size: number) {
    super(
      `service bug: ${size} or more ${collection} share lastupdated=${lastupdated}, so keyset paging with size=${size} ` +
        'cannot advance past them (lastupdated must be unique per item; DEC-ITEM-009). Stopped instead of looping forever; ' +
        'a larger size gets past this group if it is smaller than the size.',
    );
    this.name = 'LastUpdatedTieError';
    this.collection = collection;
    this.lastupdated = lastupdated;
    this.size = size;
  }
}

/** The service broke a rule the procedure relies on (order, inclusive bound, required fields). */
export class SyncProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SyncProtocolError';
  }
}

/** An item as `read: 'entries'` gives it: the members sync reads, and its JSON text as received (UTF-8). */
export type ItemEntry = SyncItem & { json: Uint8Array };

export interface KeysetPage<T extends SyncItem> {
  /** 1-based. */
  number: number;
  /** Everything the service returned. */
  items: T[];
  /** `items` without the boundary repeats already seen in this run. */
  fresh: T[];
  /** The `lastupdated` sent for this page (undefined on a first, unbounded page). */
  from: string | undefined;
  /** The largest `lastupdated` of `items` as the service wrote it (the first of equal instants); undefined on an empty page. */
  mark: string | undefined;
}

export interface KeysetOptions {
  size: number;
  /** Inclusive start; undefined = from the beginning. */
  from?: string;
  /**
   * `items` (default): each item parsed. `entries`: each item's `trcid`, `lastupdated` and
   * `wfstatus` and its bytes in the body (ItemEntry), read without building or decoding the item.
   */
  read?: 'items' | 'entries';
  signal?: AbortSignal;
}

const keyOf = (item: SyncItem) => `${item.trcid}\u0000${item.lastupdated}`;

function checkItem(collection: Collection, item: SyncItem, index: number, pageNumber: number): Instant {
  if (typeof item?.trcid !== 'string' || item.trcid === '') {
    throw new SyncProtocolError(
      `${collection} page ${pageNumber}, item ${index}: trcid missing (required in responses)`,
    );
  }
  if (typeof item.lastupdated !== 'string') {
    throw new SyncProtocolError(
      `${collection} page ${pageNumber}, item ${item.trcid}: lastupdated missing; keyset sync needs it`,
    );
  }
  try {
    return parseInstant(item.lastupdated);
  } catch {
    throw new SyncProtocolError(
      `${collection} page ${pageNumber}, item ${item.trcid}: lastupdated ${JSON.stringify(item.lastupdated)} is not ISO-8601`,
    );
  }
}

/**
 * The value of the first or last `"lastupdated":"` member in a page's raw bytes (unescaped), or
 * undefined: a guess at the first or last item's stamp, read without parsing the page.
 */
export function stampInBody(body: Uint8Array, which: 'first' | 'last'): string | undefined {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const at = which === 'first' ? bytes.indexOf(LASTUPDATED_MEMBER) : bytes.lastIndexOf(LASTUPDATED_MEMBER);
  if (at < 0) return undefined;
  const start = at + LASTUPDATED_MEMBER.length;
  const end = bytes.indexOf(0x22, start);
  if (end < 0) return undefined;
  const value = bytes.toString('utf8', start, end);
  return value.includes('\\') ? undefined : value;
}

const LASTUPDATED_MEMBER = Buffer.from('"lastupdated":"');

/** One request of a page, possibly sent before it is known to be needed. */
interface PageRequest<T> {
  from: string | undefined;
  /** The raw body when the source has `listItemsBody`, else the items. */
  answer: Promise<Uint8Array | T[]>;
  abort: AbortController;
}

const ENTRY_MEMBERS = ['trcid', 'lastupdated', 'wfstatus'] as const;

/** A page's items as `read` asks. */
function readPage<T>(
  collection: Collection,
  number: number,
  answer: Uint8Array | T[],
  read: 'items' | 'entries',
): T[] | ItemEntry[] {
  if (!(answer instanceof Uint8Array)) {
    if (read === 'items' || !Array.isArray(answer)) return answer;
    return answer.map((item) => ({ ...(item as SyncItem), json: Buffer.from(JSON.stringify(item)) }));
  }
  const bytes = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
  try {
    if (read === 'entries')
      return pageElements(bytes, ENTRY_MEMBERS).map(({ values: [trcid, lastupdated, wfstatus], start, end }) => ({
        trcid: trcid!,
        lastupdated,
        wfstatus: wfstatus as SyncItem['wfstatus'],
        json: bytes.subarray(start, end),
      }));
    return parseJson(bytes.toString('utf8')) as T[];
  } catch (error) {
    throw new SyncProtocolError(`${collection} page ${number}: not JSON (${(error as Error).message})`);
  }
}

// @implements PAGE-005
/**
 * The pages of the procedure, each asked for while the caller still processes the one before:
 * the next request goes out as soon as its bound is known. With a source that hands out raw
 * bodies (`listItemsBody`), that is before the page is parsed: the bound is guessed from the
 * body's tail (the last `"lastupdated"` member) and checked once the page is parsed; a wrong guess
 * (another member order, a nested `lastupdated`) or a short page discards that answer. The pages
 * used are exactly those of the request-by-request procedure, for any server.
 */
export function keysetPages<T extends SyncItem>(
  source: ItemSource<T>,
  collection: Collection,
  wfstatus: readonly WfStatus[],
  options: KeysetOptions & { read?: 'items' },
): AsyncGenerator<KeysetPage<T>, void, undefined>;
export function keysetPages(
  source: ItemSource<SyncItem>,
  collection: Collection,
  wfstatus: readonly WfStatus[],
  options: KeysetOptions & { read: 'entries' },
): AsyncGenerator<KeysetPage<ItemEntry>, void, undefined>;
export async function* keysetPages<T extends SyncItem>(
  source: ItemSource<T>,
  collection: Collection,
  wfstatus: readonly WfStatus[],
  options: KeysetOptions,
): AsyncGenerator<KeysetPage<T | ItemEntry>, void, undefined> {
  const { size, signal } = options;
  assertSyncSize(size);
  const request = (from: string | undefined): PageRequest<T> => {
    const abort = new AbortController();
    const query: ListItemsQuery = {
      wfstatus: [...wfstatus],
      sortField: 'lastupdated',
      sortOrder: 'ASC',
      size,
      ...(from !== undefined ? { lastupdated: from } : {}),
    };
    const call = { signal: signal === undefined ? abort.signal : AbortSignal.any([signal, abort.signal]) };
    const answer = source.listItemsBody
      ? source.listItemsBody(collection, query, call)
      : source.listItems(collection, query, call);
    // Awaited later or discarded: never an unhandled rejection in between.
    answer.catch(() => {});
    return { from, answer, abort };
  };
  const discard = (pending: PageRequest<T> | undefined) => {
    pending?.abort.abort();
  };

  let from = options.from;
  let seenAtBound = new Set<string>();
  let current = request(from);
  let next: PageRequest<T> | undefined;
  try {
    for (let number = 1; ; number++) {
      signal?.throwIfAborted();
      const answer = await current.answer;
      // Guess only after a full page: a run whose first page is short (an incremental run) sends no extra request.
      const guess = answer instanceof Uint8Array && number > 1 ? stampInBody(answer, 'last') : undefined;
      if (guess !== undefined) {
        next = request(guess);
        // undici writes a request on an idle keep-alive socket from the event loop's check phase,
        // queued once fetch's own promise steps have run: yield two check phases, so that the
        // request is with the service while this page is parsed.
        await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
      }
      const items: Array<T | ItemEntry> = readPage(collection, number, answer, options.read ?? 'items');
      if (!Array.isArray(items))
        throw new SyncProtocolError(`${collection} page ${number}: expected a JSON array of items`);

      // Each stamp is parsed once; the comparisons below use the parsed instants.
      const fromInstant = from === undefined ? undefined : parseInstant(from);
      const instants = items.map((item, i) => checkItem(collection, item, i, number));
      for (const [i, instant] of instants.entries()) {
        if (fromInstant !== undefined && compareParsed(instant, fromInstant) < 0) {
          throw new SyncProtocolError(
            `${collection} page ${number}: item ${items[i]!.trcid} has lastupdated ${items[i]!.lastupdated}, before the requested lastupdated=${from} (the filter is inclusive >=)`,
          );
        }
        if (i > 0 && compareParsed(instant, instants[i - 1]!) < 0) {
          throw new SyncProtocolError(
            `${collection} page ${number}: items not in ascending lastupdated order (${items[i - 1]!.lastupdated} then ${items[i]!.lastupdated}) although sortOrder=ASC`,
          );
        }
      }

      const atBound = from;
      const repeated = (i: number) =>
        fromInstant !== undefined &&
        compareParsed(instants[i]!, fromInstant) === 0 &&
        seenAtBound.has(keyOf(items[i]!));
      const fresh = atBound === undefined ? items : items.filter((_it, i) => !repeated(i));
      // The page's largest lastupdated (ascending: the last item's), the first of equal instants.
      let markAt = items.length - 1;
      while (markAt > 0 && compareParsed(instants[markAt - 1]!, instants[markAt]!) === 0) markAt--;
      const mark = markAt < 0 ? undefined : items[markAt]!.lastupdated;
      const done = items.length < size;
      if (!done) {
        const last = items[items.length - 1]!.lastupdated!;
        const lastInstant = instants[items.length - 1]!;
        // Ascending and >= from: first == last means the whole full page shares one stamp, and the
        // next request (lastupdated = that stamp) would return this same page again.
        if (compareParsed(instants[0]!, lastInstant) === 0) throw new LastUpdatedTieError(collection, last, size);
        seenAtBound = new Set(items.filter((_it, i) => compareParsed(instants[i]!, lastInstant) === 0).map(keyOf));
        from = last;
      }
      // The guess is used only when it is the bound the procedure sends.
      if (next !== undefined && (done || next.from !== from)) {
        discard(next);
        next = undefined;
      }
      if (!done) next ??= request(from);
      yield { number, items, fresh, from: atBound, mark };
      if (done) return;
      current = next!;
      next = undefined;
    }
  } finally {
    discard(next);
    discard(current);
  }
}
