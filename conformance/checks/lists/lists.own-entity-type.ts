import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { COLLECTIONS } from '../../support/collections.ts';
import { ALL_STATUSES, listItems } from '../../support/items.ts';

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
        const { res, items } = await listItems(ctx, path, query, { token });
        const index = items.findIndex((i) => i.entitytype !== entitytype);
        if (index === -1) continue;
        const found = items[index]!.entitytype;
        throw new CheckFailure({
          message: `GET ${path} (${token} token) holds an item of entity type ${String(found)}${found === 'EVENEMENTGROEP' ? ' (renamed EVENTGROUP in May 2025)' : ''}`,
          received: found,
          expected: entitytype,
          pointer: `/${index}/entitytype`,
          requirements: found === 'EVENEMENTGROEP' ? ['VER-002'] : ['ITEM-028', 'ITEM-004'],
          exchanges: [res.exchange],
        });
      }
    }
  },
});
