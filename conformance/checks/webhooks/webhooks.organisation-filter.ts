import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem } from '../../support/items.ts';
import { twoOrganisations } from '../../support/tokens.ts';
import { callbackId, disposing, holds, hookToken, timing, waitForCallback } from '../../support/webhooks.ts';

export default defineCheck({
  id: 'webhooks.organisation-filter',
  title: "A token restricted to one organisation gets webhooks for its items only, never for another organisation's",
  requirements: ['HOOK-008'],
  tags: ['webhooks', 'security'],
  needs: ['webhook'],
  writes:
    'two tokens with a callBackUrl (deleted at once) and one event in each of two organisations of the account (soft-deleted)',
  dependsOn: ['webhooks.delivery-signed'],
  run: async (ctx) => {
    const orgs = await twoOrganisations(ctx, ['HOOK-008']);
    if (!orgs) return;
    const [a, b] = orgs;
    const hookA = await hookToken(ctx, 'org-a', { organisations: [a] });
    const hookB = await hookToken(ctx, 'org-b', { organisations: [b] });
    await disposing([hookA, hookB], async () => {
      const [inA, inB] = await Promise.all([
        createItem(
          ctx,
          '/events',
          { wfstatus: WORKFLOW_STATUS.approved, userorganisation: a },
          { label: 'hook-org-a' },
        ),
        createItem(
          ctx,
          '/events',
          { wfstatus: WORKFLOW_STATUS.approved, userorganisation: b },
          { label: 'hook-org-b' },
        ),
      ]);
      const idA = callbackId(inA.id, '/events', 'UPDATED');
      const idB = callbackId(inB.id, '/events', 'UPDATED');
      // Each token hears of its own organisation's item (so deliveries work at all) …
      await Promise.all([waitForCallback(ctx, hookA, idA), waitForCallback(ctx, hookB, idB)]);
      // … and, a while later, still not of the other one.
      const leaked = (hook: typeof hookA, id: string, org: string, other: string) => {
        const found = hook.endpoint.deliveries.find(holds(id));
        if (found)
          throw new CheckFailure({
            message: `a token restricted to ${org} got the webhook for an item of ${other}`,
            received: id,
            expected: `only items of ${org}`,
            requirements: ['HOOK-008'],
          });
      };
      leaked(hookA, idB, a, b);
      leaked(hookB, idA, b, a);
      await Promise.all([
        hookA.endpoint.expectNone(timing(ctx).quietMs, holds(idB), `delivery of ${b}'s item to the token of ${a}`),
        hookB.endpoint.expectNone(timing(ctx).quietMs, holds(idA), `delivery of ${a}'s item to the token of ${b}`),
      ]);
    });
  },
});
