import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { COLLECTIONS } from '../../support/collections.ts';
import { ALL_STATUSES } from '../../support/itemTypes.ts';
import { listItems } from '../../support/lists.ts';

export default defineCheck({
  id: 'lists.own-entity-type',
  title:
    'Each collection holds only its own entity type (events EVENEMENT, locations LOCATIE, venues VENUE, event groups EVENTGROUP, routes ROUTE), for the consumer token and the full token',
  requirements: ['ITEM-028', 'ITEM-001', 'ITEM-004', 'VER-002'],
  tags: ['lists'],
  needs: ['consumer'],
  dependsOn: ['lists.bare-array'],
  run: async (ctx) => {
    const tokens = ctx.tokens.full ? (['consumer', 'full'] as const) : (['consumer'] as const);
    for (const token of tokens) {
      for (const { path, entitytype } of COLLECTIONS) {
        const query = token === 'full' ? { size: 100, wfstatus: ALL_STATUSES } : { size: 100 };
        // Kinds first: an item of another kind is also a spec problem, but it is about the kinds.
        const { res, items } = await listItems(ctx, path, query, { token, validate: 'defer' });
        const index = items.findIndex((i) => i.entitytype !== entitytype);
        if (index === -1) {
          res.assertConforms();
          continue;
        }
        const found = items[index]!.entitytype;
        throw new CheckFailure({
          message: `GET ${path} (${token} token) holds an item of entity type ${String(found)}${found === 'EVENEMENTGROEP' ? ' (renamed EVENTGROUP in May 2025)' : ''}`,
          received: found,
          expected: entitytype,
          pointer: `/${index}/entitytype`,
          requirements: requirementsFor(found),
          exchanges: [res.exchange],
        });
      }
    }
  },
});

/** An item of another known kind breaks only the collection rule; an unknown or missing kind, the kinds themselves. */
function requirementsFor(found: unknown): string[] {
  if (found === 'EVENEMENTGROEP') return ['VER-002'];
  return COLLECTIONS.some((c) => c.entitytype === found) ? ['ITEM-028'] : ['ITEM-004', 'ITEM-001'];
}
