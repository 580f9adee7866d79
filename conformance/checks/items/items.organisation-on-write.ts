import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { createItem } from '../../support/items.ts';
import { listUserOrganisations, writerToken } from '../../support/organisations.ts';

export default defineCheck({
  id: 'items.organisation-on-write',
  title:
    "An item written without userorganisation goes to the first organisation of the writer's account; one written for an organisation of another account is a 403",
  requirements: ['DEC-ITEM-007'],
  tags: ['items', 'scope', 'decision'],
  needs: ['write', 'admin'],
  writes: "one event (tagged with the run id); one for another account's organisation that must be refused",
  run: async (ctx) => {
    const orgs = await listUserOrganisations(ctx);
    const own = orgs.filter((o) => o.accountId === ctx.config.accountId).map((o) => o.userorganisation);
    const plain = await createItem(ctx, '/events', {}, { label: 'default-org', ownOrganisation: false });
    if (!own.includes(String(plain.item.userorganisation)))
      throw new CheckFailure({
        message: "an item written without userorganisation is not in an organisation of the writer's account",
        received: plain.item.userorganisation,
        expected: own.join(' | '),
        pointer: '/userorganisation',
        exchanges: [plain.created.exchange],
      });
    const foreign = orgs.find((o) => o.accountId !== ctx.config.accountId);
    if (!foreign) return ctx.skip('every organisation belongs to --account-id: no foreign one to write to');
    const tag = ctx.tag('foreign-org');
    const token = writerToken(ctx);
    const res = await ctx.http.post('/events', {
      token,
      json: {
        trcid: tag,
        slug: tag,
        userorganisation: foreign.userorganisation,
        trcItemDetails: [{ lang: 'nl', title: tag }],
      },
      validate: 'defer',
    });
    const id = (res.body as { id?: unknown } | undefined)?.id;
    if (res.status < 300 && typeof id === 'string') ctx.cleanup.softDelete(`/events/${id}`, token);
    assertStatus(res, 403, {
      message: `writing an item for ${foreign.userorganisation} (account ${foreign.accountId}) answered ${res.status}`,
    });
    res.assertConforms();
  },
});
