import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import type { TokenChoice } from '../../http/httpClient.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import type { Delivery } from '../../receiver/receiver.ts';
import { assertStatus } from '../../support/assert.ts';
import { createItem, updateItem } from '../../support/items.ts';
import type { CreatedItem } from '../../support/items.ts';
import {
  assertSignedDelivery,
  callbackId,
  callbackItems,
  deliveryFailure,
  disposing,
  holds,
  hookToken,
  RESOURCES,
  timing,
  waitForCallback,
} from '../../support/webhooks.ts';
import type { ActionType, CallbackItem, HookToken, Resource } from '../../support/webhooks.ts';

/** The callback item must name the item, its type and the action, and its resourceUri must be an absolute URL. */
function assertItem(
  item: CallbackItem,
  delivery: Delivery,
  created: CreatedItem,
  resource: Resource,
  action: ActionType,
): void {
  const fail = (message: string, received: unknown, expected: unknown, pointer: string, requirements: string[]) =>
    deliveryFailure({ message: `${item.id}: ${message}`, received, expected, pointer, requirements }, [delivery]);
  if (item.actionType !== action)
    throw fail(`actionType is ${String(item.actionType)}`, item.actionType, action, '/items/actionType', ['HOOK-006']);
  if (item.resourceType !== resource.resourceType)
    throw fail(
      `resourceType is ${String(item.resourceType)} for a ${resource.entitytype}`,
      item.resourceType,
      resource.resourceType,
      '/items/resourceType',
      ['HOOK-001', 'HOOK-005'],
    );
  if (item.trcid !== created.trcid)
    throw fail("trcid is not the item's", item.trcid, created.trcid, '/items/trcid', ['HOOK-001']);
  let uri: URL | undefined;
  try {
    uri = typeof item.resourceUri === 'string' ? new URL(item.resourceUri) : undefined;
  } catch {
    uri = undefined;
  }
  if (!uri || !/^https?:$/.test(uri.protocol))
    throw fail(
      'resourceUri is not an absolute URL',
      item.resourceUri,
      `the item's URL, ending in ${created.path}`,
      '/items/resourceUri',
      ['HOOK-001'],
    );
}

export default defineCheck({
  id: 'webhooks.event-types',
  title:
    'All ten event types: create and update are <Type>Updated/UPDATED, delete <Type>Deleted/DELETED, for each collection; resourceUri reads the item, and 404 once it is deleted',
  requirements: ['HOOK-005', 'HOOK-006', 'HOOK-001', 'HOOK-003', 'HOOK-004', 'HOOK-002', 'DEC-ITEM-004'],
  tags: ['webhooks'],
  needs: ['webhook'],
  writes: 'a token with a callBackUrl (deleted at once) and one item per collection (deleted by the check)',
  dependsOn: ['webhooks.delivery-signed'],
  run: async (ctx) => {
    const hook: HookToken = await hookToken(ctx, 'types');
    const reader: TokenChoice = hook.bearer ? { bearer: hook.bearer } : 'consumer';
    await disposing([hook], async () => {
      // Create one approved item per collection.
      const created = await Promise.all(
        RESOURCES.map((r) =>
          createItem(ctx, r.path, { wfstatus: WORKFLOW_STATUS.approved }, { label: `hook-${r.name}` }),
        ),
      );
      const updates = await Promise.all(
        created.map((item, i) =>
          waitForCallback(ctx, hook, callbackId(item.id, RESOURCES[i]!.path, 'UPDATED'), ['HOOK-002', 'HOOK-005']),
        ),
      );
      for (const [i, { delivery, item }] of updates.entries()) {
        assertSignedDelivery(ctx, delivery, hook.secret);
        assertItem(item, delivery, created[i]!, RESOURCES[i]!, 'UPDATED');
        // The notification is not a snapshot: resourceUri gives the current state.
        const res = await ctx.http.get(item.resourceUri as string, { token: reader });
        assertStatus(res, 200, {
          requirements: ['HOOK-003'],
          message: `GET resourceUri ${String(item.resourceUri)} answered ${res.status}`,
        });
        const read = res.body as { id?: unknown; trcid?: unknown } | undefined;
        if (read?.id !== created[i]!.id) {
          throw new CheckFailure({
            message: 'resourceUri does not read the changed item',
            received: read?.id,
            expected: created[i]!.id,
            pointer: '/id',
            requirements: ['HOOK-003'],
            exchanges: [res.exchange],
          });
        }
      }

      // An update is UPDATED too: a second EventUpdated after the first was delivered.
      const event = created[0]!;
      const seen = hook.endpoint.deliveries.length;
      const put = await updateItem(ctx, event, { trcItemDetails: [{ lang: 'nl', title: `${event.trcid} updated` }] });
      assertStatus(put, 200, {
        requirements: ['HOOK-006'],
        message: `PUT ${new URL(put.url).pathname} answered ${put.status}`,
      });
      put.assertConforms(['HOOK-006']);
      const updatedId = callbackId(event.id, '/events', 'UPDATED');
      const after = hook.endpoint.deliveries[seen - 1]!.seq;
      const again = await hook.endpoint
        .waitFor(
          (d) => d.seq > after && holds(updatedId)(d),
          timing(ctx).waitMs,
          `delivery of the update (${updatedId})`,
        )
        .catch((error: unknown) => {
          throw error instanceof CheckFailure
            ? new CheckFailure({
                message: `an update produced no ${updatedId}: ${error.message}`,
                received: error.received,
                expected: error.expected,
                requirements: ['HOOK-006'],
              })
            : error;
        });
      assertItem(
        callbackItems(again).find((i) => i.id === updatedId)!,
        again,
        event,
        RESOURCES[0]!,
        'UPDATED',
      );
      ctx.verified(['HOOK-003']);

      // Delete each: <Type>Deleted with DELETED, and resourceUri answers 404.
      for (const item of created) {
        const res = await ctx.http.delete(item.path, { token: item.token, validate: 'defer' });
        assertStatus(res, [200, 204], {
          requirements: ['HOOK-006'],
          message: `DELETE ${item.path} answered ${res.status}`,
        });
        res.assertConforms(['HOOK-006']);
      }
      const deletes = await Promise.all(
        created.map((item, i) =>
          waitForCallback(ctx, hook, callbackId(item.id, RESOURCES[i]!.path, 'DELETED'), ['HOOK-005', 'HOOK-006']),
        ),
      );
      for (const [i, { delivery, item }] of deletes.entries()) {
        assertSignedDelivery(ctx, delivery, hook.secret);
        assertItem(item, delivery, created[i]!, RESOURCES[i]!, 'DELETED');
        const gone = await ctx.http.get(item.resourceUri as string, { token: reader, validate: 'defer' });
        assertStatus(gone, 404, {
          requirements: ['HOOK-004'],
          message: `GET resourceUri of a deleted ${RESOURCES[i]!.entitytype} answered ${gone.status}`,
        });
        gone.assertConforms(['HOOK-004']);
      }
      ctx.verified(['HOOK-005', 'HOOK-006', 'HOOK-001', 'HOOK-004', 'HOOK-002']);
      // Also for a token that sees deleted items (DEC-ITEM-004: 404 for every token).
      const writer = created[0]!.token;
      if (writer !== 'consumer') {
        const gone = await ctx.http.get(deletes[0]!.item.resourceUri as string, { token: writer, validate: 'defer' });
        assertStatus(gone, 404, {
          requirements: ['DEC-ITEM-004'],
          message: `GET resourceUri of a deleted event with the ${String(writer)} token answered ${gone.status}`,
        });
        gone.assertConforms(['DEC-ITEM-004']);
      }
    });
  },
});
