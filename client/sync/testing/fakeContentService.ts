// A scripted in-memory model of the list endpoints, with the interface's exact semantics:
// inclusive `lastupdated` filter, `wfstatus` filter, ascending (or descending) order with an `id` tiebreaker,
// `size`. Used by the sync tests; also handy for integrators' own tests.
//
// Timestamps are emitted in a service-chosen format (by default with microseconds and a +01:00
// offset) and the fake insists that every `lastupdated` it receives is a string it sent: a client
// that re-formats timestamps through Date fails loudly.

import type { Collection, ItemSource, ListItemsQuery, SourceCallOptions, SyncItem, WfStatus } from '../types.ts';
import { compareInstants } from '../instant.ts';

export interface FakeItem extends SyncItem {
  id: string;
  trcid: string;
  wfstatus: WfStatus;
  lastupdated: string;
  version: number;
  title: string;
}

export interface FakeServiceOptions {
  /** Microseconds the clock advances per write: ≥ 1 gives unique stamps; 0 makes ties. Default 1. */
  tick?: () => number;
  /** Start instant, epoch microseconds. */
  start?: number;
  /** How a stamp is written. Default: `2026-03-01T11:00:00.123456+01:00`-style. */
  format?: (epochMicros: number) => string;
  /** Called before every list call with the 1-based call number; may throw or change data. */
  beforeList?: (call: number, collection: Collection, query: FakeListQuery) => void;
  /** Reject stamps the fake never emitted (default true). */
  strictStamps?: boolean;
  /**
   * Also offer `listItemsBody`: the same answer as `listItems` (the same call), written by this
   * function as the body's text, as a service may write it (member order, whitespace, nesting).
   */
  writeBody?: (items: FakeItem[], call: number) => string;
}

/** The sync's query, or the same with `sortOrder=DESC` (the CLI asks for the newest item that way). */
export type FakeListQuery = Omit<ListItemsQuery, 'sortOrder'> & { sortOrder: 'ASC' | 'DESC' };

const STATUSES: readonly WfStatus[] = ['draft', 'readyforvalidation', 'approved', 'rejected', 'archived', 'deleted'];

/**
 * ISO with microseconds and a fixed +01:00 offset: valid, but not what Date#toISOString gives,
 * and finer than Date can hold (many stamps share one millisecond).
 */
export function offsetMicrosFormat(epochMicros: number): string {
  const ms = Math.floor(epochMicros / 1000);
  const local = new Date(ms + 3_600_000).toISOString().slice(0, 23); // wall clock at +01:00
  return `${local}${String(epochMicros % 1000).padStart(3, '0')}+01:00`;
}

/** `Date#toISOString` shape (UTC, milliseconds, Z): use with ticks of 1000 µs for unique stamps. */
export function utcMillisFormat(epochMicros: number): string {
  return new Date(Math.floor(epochMicros / 1000)).toISOString();
}

export class FakeServiceError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export interface FakeContentService extends ItemSource<FakeItem> {
  create(collection: Collection, fields?: { wfstatus?: WfStatus; trcid?: string }): FakeItem;
  update(trcid: string, fields?: { wfstatus?: WfStatus; title?: string }): FakeItem;
  /** Items as stored (all statuses). */
  all(collection: Collection): FakeItem[];
  /** trcid → version of the approved items: what a converged mirror must hold. */
  approved(collection: Collection): Map<string, number>;
  listItems(collection: Collection, query: FakeListQuery, options?: SourceCallOptions): Promise<FakeItem[]>;
  /** How many items `query` matches on all its pages (not recorded in `calls`). */
  count(collection: Collection, query: FakeListQuery): number;
  /** Present with `writeBody`. */
  listItemsBody?(collection: Collection, query: FakeListQuery, options?: SourceCallOptions): Promise<Uint8Array>;
  readonly calls: Array<{ collection: Collection; query: FakeListQuery }>;
}

export function createFakeContentService(options: FakeServiceOptions = {}): FakeContentService {
  const tick = options.tick ?? (() => 1);
  const format = options.format ?? offsetMicrosFormat;
  const strict = options.strictStamps ?? true;
  let clock = options.start ?? Date.UTC(2026, 2, 1, 10, 0, 0) * 1000;
  let ids = 0;
  const items = new Map<string, FakeItem & { collection: Collection }>();
  const emitted = new Set<string>();
  const calls: Array<{ collection: Collection; query: FakeListQuery }> = [];

  const stamp = () => {
    clock += tick();
    const s = format(clock);
    emitted.add(s);
    return s;
  };
  const byTrcid = (trcid: string) => {
    for (const item of items.values()) if (item.trcid === trcid) return item;
    throw new Error(`fake: no item ${trcid}`);
  };
  const publicCopy = ({ collection: _c, ...item }: FakeItem & { collection: Collection }): FakeItem =>
    structuredClone(item);

  /** The items of every page of `query`, in no particular order. */
  const matching = (collection: Collection, query: FakeListQuery) => {
    const statuses: readonly string[] = query.wfstatus;
    const from = query.lastupdated;
    return [...items.values()]
      .filter((i) => i.collection === collection && statuses.includes(i.wfstatus))
      .filter((i) => from === undefined || compareInstants(i.lastupdated, from) >= 0);
  };

  const service: FakeContentService = {
    calls,
    create(collection, fields = {}) {
      ids++;
      const id = `00000000-0000-4000-8000-${String(ids).padStart(12, '0')}`;
      const item = {
        collection,
        id,
        trcid: fields.trcid ?? `trc-${ids}`,
        entitytype: 'EVENEMENT',
        wfstatus: fields.wfstatus ?? 'approved',
        lastupdated: stamp(),
        version: 1,
        title: `item ${ids} v1`,
      };
      items.set(id, item);
      return publicCopy(item);
    },
    update(trcid, fields = {}) {
      const item = byTrcid(trcid);
      item.version++;
      item.title = fields.title ?? `${item.trcid} v${item.version}`;
      if (fields.wfstatus) item.wfstatus = fields.wfstatus;
      // Every write, status changes included, bumps lastupdated (removals must reach sync).
      item.lastupdated = stamp();
      return publicCopy(item);
    },
    all: (collection) => [...items.values()].filter((i) => i.collection === collection).map(publicCopy),
    approved: (collection) =>
      new Map(
        [...items.values()]
          .filter((i) => i.collection === collection && i.wfstatus === 'approved')
          .map((i) => [i.trcid, i.version]),
      ),
    count: (collection, query) => matching(collection, query).length,
    async listItems(collection: Collection, query: FakeListQuery, _options?: SourceCallOptions) {
      calls.push({ collection, query: { ...query } });
      options.beforeList?.(calls.length, collection, query);
      if (!Number.isInteger(query.size) || query.size < 1)
        throw new FakeServiceError(400, `size must be at least 1 (requested: ${query.size})`);
      if (query.size > 2000) throw new FakeServiceError(400, `size must not exceed 2000 (requested: ${query.size})`);
      const order = query.sortOrder.toUpperCase();
      if (query.sortField !== 'lastupdated' || (order !== 'ASC' && order !== 'DESC'))
        throw new FakeServiceError(400, 'fake supports sortField=lastupdated, sortOrder=ASC or DESC only');
      const direction = order === 'ASC' ? 1 : -1;
      const statuses: readonly string[] = query.wfstatus;
      for (const s of statuses)
        if (!STATUSES.includes(s as WfStatus)) throw new FakeServiceError(400, `unknown wfstatus ${s}`);
      const from = query.lastupdated;
      if (from !== undefined && strict && !emitted.has(from)) {
        throw new FakeServiceError(
          400,
          `lastupdated=${from} is not a value this service sent (the client re-formatted it)`,
        );
      }
      return matching(collection, query)
        .sort(
          (a, b) =>
            direction * (compareInstants(a.lastupdated, b.lastupdated) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
        )
        .slice(0, query.size)
        .map(publicCopy);
    },
  };
  const { writeBody } = options;
  if (writeBody !== undefined)
    service.listItemsBody = async (collection, query, call) => {
      const items = await service.listItems(collection, query, call);
      return Buffer.from(writeBody(items, calls.length));
    };
  return service;
}
