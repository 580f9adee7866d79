import { randomUUID } from 'node:crypto';
import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem } from '../../support/items.ts';
import { assertBooleansFollowWfstatus } from '../../support/listAssertions.ts';

const LONG_AGO = '2001-02-03T04:05:06.789Z';

export default defineCheck({
  id: 'items.read-only-fields',
  title:
    "Server-set fields sent on create (id, creationdate, lastupdated, the legacy booleans) do not override the server's values, and isprivate is not set",
  requirements: ['ITEM-005', 'ITEM-006', 'ITEM-017', 'ITEM-018', 'DEC-ITEM-005', 'DEC-ITEM-020'],
  tags: ['items', 'write'],
  needs: ['write'],
  writes: 'one approved event (tagged with the run id)',
  run: async (ctx) => {
    const sentId = randomUUID();
    const body = {
      id: sentId,
      creationdate: LONG_AGO,
      lastupdated: LONG_AGO,
      wfstatus: WORKFLOW_STATUS.approved,
      published: false,
      deleted: true,
      offline: true,
      isprivate: true,
      externalId: `${ctx.runId}-feed:1`,
    };
    let created;
    try {
      created = await createItem(ctx, '/events', body, { label: 'read-only', requirements: ['DEC-ITEM-005'] });
    } catch (error) {
      // Refusing read-only fields is a different decision than ours; the MUSTs are then checked without them.
      ctx.note(`a body with read-only fields was refused: ${(error as Error).message}`);
      await createItem(ctx, '/events', { wfstatus: WORKFLOW_STATUS.approved }, { label: 'read-only' });
      throw error;
    }
    const { item, created: answer } = created;
    const fail = (message: string, received: unknown, expected: unknown, requirements: string[], pointer: string) => {
      throw new CheckFailure({
        message: `${created.path}: ${message}`,
        received,
        expected,
        pointer,
        requirements,
        exchanges: [answer.exchange],
      });
    };
    if (item.id === sentId)
      fail(
        "the id sent on create became the item's id",
        item.id,
        'an id assigned by the server',
        ['DEC-ITEM-005'],
        '/id',
      );
    if (item.creationdate === LONG_AGO || Date.parse(String(item.creationdate)) === Date.parse(LONG_AGO))
      fail(
        'creationdate is the value the client sent',
        item.creationdate,
        'set by the server',
        ['ITEM-005'],
        '/creationdate',
      );
    if (Date.parse(String(item.lastupdated)) === Date.parse(LONG_AGO))
      fail(
        'lastupdated is the value the client sent',
        item.lastupdated,
        'set by the server',
        ['ITEM-006'],
        '/lastupdated',
      );
    if (item.isprivate === true)
      fail('isprivate was set on write', item.isprivate, 'absent (not maintained)', ['ITEM-018'], '/isprivate');
    assertBooleansFollowWfstatus(item, answer, {
      requirements: ['ITEM-017'],
      message: `${created.path}: booleans sent on create were kept instead of being derived from wfstatus approved`,
    });
    ctx.verified(['ITEM-005', 'ITEM-006', 'ITEM-017', 'ITEM-018']);
    if (item.externalId !== undefined)
      fail(
        'externalId sent on create was stored (only the feed import sets it)',
        item.externalId,
        '(absent)',
        ['DEC-ITEM-020'],
        '/externalId',
      );
  },
});
