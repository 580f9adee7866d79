import { createMemoryStore, reconcile, syncItems } from '../../../client/index.ts';
import type { ContentItem, MemoryStore, SyncSummary } from '../../../client/index.ts';
import { PAGE_SIZE, WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import type { TokenChoice } from '../../http/httpClient.ts';
import type { CheckContext } from '../../engine/runtime/context.ts';
import { assertStatus } from '../../support/assert.ts';
import { suiteClient } from '../../support/clientSource.ts';
import { canReachStatus, createItem, updateItem } from '../../support/items.ts';
import { listItems } from '../../support/lists.ts';
import { CheckUnobservable } from '../../model/failure.ts';
import type { CreatedItem } from '../../support/items.ts';
import type { WfStatus } from '../../support/itemTypes.ts';

const COLLECTION = 'venues';
const SIZE = 3;
/** A collection this small is backfilled from scratch; a larger one from the check's first item. */
const FULL_BACKFILL_MAX = 60;

type Store = MemoryStore<ContentItem>;

async function run(
  ctx: CheckContext,
  token: TokenChoice,
  store: Store,
  what: string,
  requirements: string[],
): Promise<SyncSummary & { seen: ContentItem[] }> {
  const client = suiteClient(ctx, token);
  const seen: ContentItem[] = [];
  // The client's own list call, watched: the check needs to know which items came back.
  const source = {
    listItems: async (...args: Parameters<typeof client.listItems>) => {
      const items = await client.listItems(...args);
      seen.push(...(items as ContentItem[]));
      return items as ContentItem[];
    },
  };
  try {
    return { ...(await syncItems(source, COLLECTION, store, { size: SIZE })), seen };
  } catch (error) {
    const e = error as Error & { status?: number };
    const protocol = e.name === 'SyncProtocolError' || e.name === 'LastUpdatedTieError';
    throw new CheckFailure({
      message: `${what}: the client's syncItems stopped: ${e.message}`,
      received: e.name,
      expected: 'a sync run to the end',
      requirements: protocol ? ['PAGE-003', 'FILTER-001'] : requirements,
      exchanges: ctx.exchanges.slice(-1),
    });
  }
}

function own(store: Store, trcids: readonly string[]): Record<string, string> {
  const snapshot = store.snapshot(COLLECTION);
  return Object.fromEntries(
    trcids
      .filter((t) => snapshot.has(t))
      .map((t) => [t, String((snapshot.get(t)!.trcItemDetails as { title?: string }[] | undefined)?.[0]?.title)]),
  );
}

function expectMirror(
  ctx: CheckContext,
  store: Store,
  trcids: readonly string[],
  expected: Record<string, string>,
  what: string,
  requirements: string[],
): void {
  const got = own(store, trcids);
  if (JSON.stringify(Object.entries(got).sort()) === JSON.stringify(Object.entries(expected).sort())) return;
  throw new CheckFailure({
    message: `${what}: the mirror does not hold the expected items (trcid → title)`,
    received: got,
    expected,
    requirements,
    exchanges: ctx.exchanges.slice(-2),
  });
}

export default defineCheck({
  id: 'sync.end-to-end',
  title:
    "The client's incremental sync (syncItems, memory store) against the target: backfill, a change, a re-sync from the mark (the boundary item comes back), removal of archived and deleted items with the full token only, reconciliation by the published trcids for the live token",
  requirements: ['SYNC-005', 'PAGE-001', 'PAGE-003', 'PAGE-004', 'FILTER-001', 'FILTER-002', 'DEC-ITEM-001'],
  tags: ['sync', 'client'],
  needs: ['write', 'full', 'consumer'],
  writes: 'four venues, changed, archived and deleted by the check (tagged with the run id)',
  run: async (ctx) => {
    if (!canReachStatus(ctx, WORKFLOW_STATUS.archived) || !canReachStatus(ctx, WORKFLOW_STATUS.deleted))
      throw new CheckUnobservable(
        'the target moves no item into archived or deleted through the API (the interface leaves it open): the removals cannot be synced',
      );
    const title = (label: string) => `${ctx.runId} sync ${label}`;
    const make = (label: string, wfstatus?: WfStatus) =>
      createItem(
        ctx,
        `/${COLLECTION}`,
        { ...(wfstatus ? { wfstatus } : {}), trcItemDetails: [{ lang: 'nl', title: title(label) }] },
        { label: 'sync' },
      );
    const a = await make('a', WORKFLOW_STATUS.approved);
    const b = await make('b', WORKFLOW_STATUS.approved);
    const c = await make('c', WORKFLOW_STATUS.approved);
    const d = await make('d');
    const trcids = [a, b, c, d].map((i) => i.trcid);

    const full = createMemoryStore<ContentItem>();
    const live = createMemoryStore<ContentItem>();
    const probe = await listItems(
      ctx,
      `/${COLLECTION}`,
      { wfstatus: 'approved,archived,deleted', sortField: 'lastupdated', sortOrder: 'ASC', size: FULL_BACKFILL_MAX },
      { token: 'full' },
    );
    if (probe.items.length >= FULL_BACKFILL_MAX) {
      // A busy collection: start both mirrors at the check's first item instead of paging through it all.
      await full.putMark(COLLECTION, String(a.item.lastupdated));
      await live.putMark(COLLECTION, String(a.item.lastupdated));
      ctx.note(
        `/${COLLECTION} holds ${FULL_BACKFILL_MAX} or more items: the backfill starts at the check's first item (${String(a.item.lastupdated)})`,
      );
    }

    // 1. Backfill: approved items only.
    await run(ctx, 'full', full, 'backfill (full token)', ['PAGE-001', 'PAGE-003']);
    await run(ctx, 'consumer', live, 'backfill (live token)', ['PAGE-001', 'PAGE-003']);
    const approved = { [a.trcid]: title('a'), [b.trcid]: title('b'), [c.trcid]: title('c') };
    expectMirror(ctx, full, trcids, approved, 'after the backfill with the full token', [
      'PAGE-001',
      'PAGE-003',
      'FILTER-001',
    ]);
    expectMirror(ctx, live, trcids, approved, 'after the backfill with the live token', [
      'PAGE-001',
      'PAGE-003',
      'FILTER-001',
    ]);

    // 2. Changes: a new title, an archive, a delete, an approval.
    const change = async (item: CreatedItem, patch: Record<string, unknown>) => {
      const res = await updateItem(ctx, item, patch);
      assertStatus(res, 200, { requirements: ['DEC-ITEM-001'] });
      res.assertConforms(['DEC-ITEM-001']);
    };
    await change(a, { trcItemDetails: [{ lang: 'nl', title: title('a changed') }] });
    await change(b, { wfstatus: WORKFLOW_STATUS.archived });
    await change(c, { wfstatus: WORKFLOW_STATUS.deleted });
    await change(d, { wfstatus: WORKFLOW_STATUS.approved });

    // 3. Re-sync from the mark: the full token sees the removals; the live token cannot.
    const second = await run(ctx, 'full', full, 'the re-sync (full token)', ['SYNC-005']);
    expectMirror(
      ctx,
      full,
      trcids,
      { [a.trcid]: title('a changed'), [d.trcid]: title('d') },
      'after the re-sync with the full token (archived and deleted items removed)',
      ['SYNC-005', 'FILTER-002'],
    );
    if (second.removed < 2)
      throw new CheckFailure({
        message: 'the re-sync with the full token removed fewer than the two items that were archived and deleted',
        received: second,
        expected: 'removed ≥ 2',
        requirements: ['SYNC-005'],
      });
    await run(ctx, 'consumer', live, 'the re-sync (live token)', ['SYNC-005']);
    expectMirror(
      ctx,
      live,
      trcids,
      { [a.trcid]: title('a changed'), [b.trcid]: title('b'), [c.trcid]: title('c'), [d.trcid]: title('d') },
      'after the re-sync with the live token (it cannot see removals, so the archived and deleted items stay until reconciliation)',
      ['SYNC-005'],
    );
    ctx.verified(['SYNC-005', 'FILTER-002', 'DEC-ITEM-001']);

    // 4. Nothing changed: the boundary item comes back (inclusive bound) and is not applied twice.
    const before = JSON.stringify([...full.snapshot(COLLECTION)].sort());
    const third = await run(ctx, 'full', full, 'a sync with nothing new', ['PAGE-004']);
    const atMark = third.seen.filter((i) => Date.parse(String(i.lastupdated)) === Date.parse(String(second.mark)));
    if (atMark.length === 0) {
      throw new CheckFailure({
        message: `a sync from the mark ${String(second.mark)} did not get the item at the mark back (the lastupdated filter must be inclusive)`,
        received: third.seen.map((i) => `${i.trcid} ${String(i.lastupdated)}`),
        expected: `the item with lastupdated ${String(second.mark)} again`,
        requirements: ['PAGE-004', 'FILTER-001'],
        exchanges: ctx.exchanges.slice(-1),
      });
    }
    if (JSON.stringify([...full.snapshot(COLLECTION)].sort()) !== before)
      throw new CheckFailure({
        message: 'a sync with nothing new changed the mirror',
        received: third,
        expected: 'the same mirror',
        requirements: ['PAGE-004'],
      });

    // 5. Reconciliation by the published trcids removes what the live token never saw leave.
    let summary;
    try {
      summary = await reconcile(suiteClient(ctx, 'consumer'), COLLECTION, live, { size: PAGE_SIZE.maximum });
    } catch (error) {
      throw new CheckFailure({
        message: `the client's reconcile stopped: ${(error as Error).message}`,
        received: (error as Error).name,
        expected: 'a reconciliation to the end',
        requirements: ['PAGE-003'],
        exchanges: ctx.exchanges.slice(-1),
      });
    }
    expectMirror(
      ctx,
      live,
      trcids,
      { [a.trcid]: title('a changed'), [d.trcid]: title('d') },
      "after reconciling the live token's mirror with the published trcids",
      ['SYNC-005', 'FILTER-002'],
    );
    ctx.note(
      `re-sync: ${second.fetched} fetched, ${second.removed} removed, ${second.repeated} repeated; reconcile removed ${summary.removed} of ${summary.local} local items`,
    );
  },
});
