import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import type { HttpResponse } from '../../http/httpClient.ts';
import { ALL_STATUSES } from '../../support/itemTypes.ts';
import { canReachStatus, createItem, updateItem } from '../../support/items.ts';
import { listItems } from '../../support/lists.ts';
import type { CreatedItem } from '../../support/items.ts';
import type { Item, WfStatus } from '../../support/itemTypes.ts';
import { assertStatus } from '../../support/assert.ts';
import { assertBooleansFollowWfstatus } from '../../support/listAssertions.ts';

const AWAY: readonly WfStatus[] = [
  WORKFLOW_STATUS.rejected,
  WORKFLOW_STATUS.readyforvalidation,
  WORKFLOW_STATUS.draft,
  WORKFLOW_STATUS.archived,
  WORKFLOW_STATUS.deleted,
];

export default defineCheck({
  id: 'workflow.transitions',
  title:
    'An approved event written with each other status takes that status and goes offline (the consumer token no longer sees it); written with approved again it is published from every status',
  requirements: ['WF-008', 'WF-009', 'WF-001', 'WF-005', 'WF-007', 'WF-010', 'DEC-ITEM-001'],
  tags: ['workflow'],
  needs: ['write', 'full', 'consumer'],
  writes: 'one event moved through every status (tagged with the run id)',
  run: async (ctx) => {
    const event = await createItem(ctx, '/events', { wfstatus: WORKFLOW_STATUS.approved }, { label: 'transitions' });
    await assertLive(ctx, event, true, ['WF-001']);
    for (const status of AWAY) {
      if (!canReachStatus(ctx, status)) {
        ctx.note(
          `not moved to ${status}: the target moves no item there through the API (the interface leaves it open)`,
        );
        continue;
      }
      const stored: WfStatus = status === WORKFLOW_STATUS.draft ? WORKFLOW_STATUS.readyforvalidation : status;
      const item = await write(ctx, event, status, ['WF-008']);
      if (item.wfstatus !== stored)
        fail(
          event,
          `written with ${status} from approved, it has wfstatus ${String(item.wfstatus)}`,
          item.wfstatus,
          stored,
          status === WORKFLOW_STATUS.draft ? ['WF-007'] : ['WF-008'],
        );
      assertBooleansFollowWfstatus(item, undefined, { requirements: ['WF-008', 'WF-010'] });
      await assertLive(ctx, event, false, ['WF-008', 'WF-005']);
      const back = await write(ctx, event, WORKFLOW_STATUS.approved, ['WF-009']);
      if (back.wfstatus !== WORKFLOW_STATUS.approved)
        fail(
          event,
          `written with approved from ${stored}, it has wfstatus ${String(back.wfstatus)}`,
          back.wfstatus,
          WORKFLOW_STATUS.approved,
          ['WF-009'],
        );
      assertBooleansFollowWfstatus(back, undefined, { requirements: ['WF-009', 'WF-010'] });
      await assertLive(ctx, event, true, ['WF-009', 'WF-001']);
    }
  },
});

function fail(
  event: CreatedItem,
  message: string,
  received: unknown,
  expected: unknown,
  requirements: string[],
  res?: HttpResponse,
): never {
  throw new CheckFailure({
    message: `${event.path}: ${message}`,
    received,
    expected,
    requirements,
    exchanges: res ? [res.exchange] : [],
  });
}

type Ctx = Parameters<typeof createItem>[0];

/** PUT what was written with another wfstatus; the item as the writer then lists it. */
async function write(ctx: Ctx, event: CreatedItem, status: WfStatus, requirements: string[]): Promise<Item> {
  const res = await updateItem(ctx, event, { wfstatus: status });
  if (res.status === 404 || res.status === 405)
    fail(
      event,
      `PUT answered ${res.status} on the update path in force (${new URL(res.url).pathname})`,
      res.status,
      200,
      ['DEC-ITEM-001'],
      res,
    );
  assertStatus(res, 200, { requirements });
  res.assertConforms(requirements);
  const after = (
    await listItems(ctx, '/events', { trcid: event.trcid, wfstatus: ALL_STATUSES }, { token: event.token })
  ).items[0];
  if (!after)
    fail(
      event,
      `after a write with wfstatus ${status} the full token no longer lists it with wfstatus=${ALL_STATUSES}`,
      '(absent)',
      event.trcid,
      requirements,
    );
  return after;
}

/** Live items are in the consumer's list and detail reads; others in neither. */
async function assertLive(ctx: Ctx, event: CreatedItem, live: boolean, requirements: string[]): Promise<void> {
  const { items, res } = await listItems(ctx, '/events', { trcid: event.trcid }, { token: 'consumer' });
  if ((items.length === 1) !== live)
    fail(
      event,
      live
        ? "an approved item is not in the consumer token's list"
        : "an item that is not approved is in the consumer token's list",
      items.map((i) => `${String(i.trcid)} (${String(i.wfstatus)})`),
      live ? [event.trcid] : [],
      requirements,
      res,
    );
  const detail = await ctx.http.get(event.path, { token: 'consumer', validate: 'defer' });
  if ((detail.status === 200) !== live)
    fail(
      event,
      live
        ? `the consumer token's detail read of an approved item answered ${detail.status}`
        : 'the consumer token can still read an item that is not approved',
      detail.status,
      live ? 200 : '404 (not visible)',
      requirements,
      detail,
    );
  detail.assertConforms(requirements);
}
