import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { catalogue, listCatalogue } from '../../support/sharedItems.ts';
import { assertBooleansFollowWfstatus } from '../../support/listAssertions.ts';

export default defineCheck({
  id: 'workflow.status-table',
  title:
    'Each status written on create is stored (draft and no status become readyforvalidation) and published/deleted/offline follow the table, in the create answer and in a list',
  requirements: ['WF-002', 'WF-003', 'WF-007', 'WF-010', 'WF-011', 'WF-012', 'ITEM-017'],
  tags: ['workflow'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue: nine event groups written with every status and none (tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const listed = await listCatalogue(ctx, cat);
    for (const entry of cat.entries) {
      const fromList = listed.own.find((i) => i.trcid === entry.trcid);
      for (const [where, item, exchange] of [
        ['read back after the write', entry.item, entry.created.exchange],
        ['in the list', fromList, listed.res.exchange],
      ] as const) {
        if (!item)
          throw new CheckFailure({
            message: `${entry.trcid} (written with ${entry.written ?? 'no wfstatus'}) is not in the full token's list of every status`,
            received: '(absent)',
            expected: entry.trcid,
            requirements: ['WF-002'],
            exchanges: [exchange],
          });
        if (item.wfstatus !== entry.status) {
          throw new CheckFailure({
            message: `${entry.trcid} written with ${entry.written === undefined ? 'no wfstatus' : `wfstatus ${entry.written}`}: ${where} it has wfstatus ${String(item.wfstatus)}`,
            received: item.wfstatus,
            expected: entry.status,
            pointer: '/wfstatus',
            requirements:
              entry.written === undefined || entry.written === WORKFLOW_STATUS.draft ? ['WF-007'] : ['WF-002'],
            exchanges: [exchange],
          });
        }
        assertBooleansFollowWfstatus(item, undefined, {
          requirements: ['WF-010', 'WF-011', 'WF-012', 'ITEM-017'],
          exchanges: [exchange],
          message: `${entry.trcid} (${entry.status}) ${where}: published/deleted/offline do not follow the table`,
        });
      }
    }
  },
});
