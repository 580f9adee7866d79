// Shared fixtures: items written once per run and read by several checks (treat them as
// read-only): the catalogue of event groups in every status, and one minimal item per collection.

import { PAGE_SIZE, WORKFLOW_STATUS } from '../../generated/constants.ts';
import { CheckFailure, CheckUnobservable } from '../model/failure.ts';
import { COLLECTIONS } from './collections.ts';
import { runFixture } from './fixtures.ts';
import type { CollectionPath, Ctx, Item, Query, WfStatus } from './itemTypes.ts';
import { ALL_STATUSES } from './itemTypes.ts';
import type { CreatedItem } from './items.ts';
import { canReachStatus, createItem } from './items.ts';
import type { ListAnswer, ListOptions } from './lists.ts';
import { listItems, onlyThese } from './lists.ts';
import { writerToken } from './organisations.ts';

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
