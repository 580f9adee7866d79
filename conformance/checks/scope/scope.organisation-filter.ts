import { PAGE_SIZE, WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { ALL_STATUSES, WF_STATUSES } from '../../support/itemTypes.ts';
import { catalogue } from '../../support/sharedItems.ts';
import { createItem } from '../../support/items.ts';
import { listItems, onlyThese } from '../../support/lists.ts';
import { listUserOrganisations } from '../../support/organisations.ts';
import type { Item } from '../../support/itemTypes.ts';
import { assertContainsAll } from '../../support/listAssertions.ts';
import { COLLECTIONS } from '../../support/collections.ts';
import type { CheckContext } from '../../engine/runtime/context.ts';
import { narrowedTo, tokenIdOf } from '../../support/tokens.ts';
import type { TokenBody } from '../../support/tokens.ts';

interface Minted {
  id: string;
  bearer: string;
}

async function mint(ctx: CheckContext, name: string, filter: Pick<TokenBody, 'apiTokenFilter'>): Promise<Minted> {
  const path = `/accounts/${encodeURIComponent(ctx.config.accountId!)}/tokens`;
  const res = await ctx.http.post(path, {
    token: 'admin',
    json: { name, roles: ['ROLE_EXTERNAL_USER'], ...filter },
    validate: 'defer',
  });
  const id = tokenIdOf(ctx, res.body);
  const bearer = (res.body as { token?: unknown } | undefined)?.token;
  if (res.status >= 300 || id === undefined || typeof bearer !== 'string') {
    throw new CheckFailure({
      message: `POST ${path} with apiTokenFilter ${JSON.stringify(filter.apiTokenFilter)} did not create a token`,
      received: `${res.status} ${res.text.slice(0, 200)}`,
      expected: '201 with the token id and token',
      requirements: ['DEC-AUTH-004'],
      exchanges: [res.exchange],
    });
  }
  res.assertConforms(['DEC-AUTH-004']);
  ctx.secret(bearer, '<minted token>');
  // Deleted at the end of the check; the cleanup repeats it in case the check stopped early.
  ctx.cleanup.softDelete(`${path}/${encodeURIComponent(id)}`, 'admin');
  return { id, bearer };
}

export default defineCheck({
  id: 'scope.organisation-filter',
  title:
    "A token restricted to one organisation sees only that organisation's items; a token provisioned for approved only never sees archived or deleted items (tokens minted with the admin token, deleted at the end)",
  requirements: ['AUTH-004', 'AUTH-005', 'SCOPE-001', 'DEC-AUTH-004'],
  tags: ['scope', 'auth', 'tokens'],
  needs: ['write', 'full', 'admin'],
  writes:
    "two account tokens (deleted at the end), one approved event in a second organisation of the account when it has one, and the run's shared catalogue",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const ownOrg = String(cat.entries[0]!.item.userorganisation);
    const orgs = (await listUserOrganisations(ctx))
      .filter((o) => o.accountId === ctx.config.accountId)
      .map((o) => o.userorganisation);
    const orgFilter = narrowedTo(ctx, { organisations: [ownOrg], statuses: WF_STATUSES });
    const liveFilter = narrowedTo(ctx, { organisations: orgs, statuses: [WORKFLOW_STATUS.approved] });
    const otherOrg = orgs.find((o) => o !== ownOrg);
    const other = otherOrg
      ? await createItem(
          ctx,
          '/events',
          { wfstatus: WORKFLOW_STATUS.approved, userorganisation: otherOrg },
          { label: 'other-org' },
        )
      : undefined;
    if (!other)
      ctx.note(
        `account ${ctx.config.accountId} has one organisation: the organisation filter is checked against the lists only`,
      );

    const minted: Minted[] = [];
    try {
      const orgToken = await mint(ctx, `${ctx.runId} conformance: ${ownOrg} only`, orgFilter);
      minted.push(orgToken);
      const liveToken = await mint(ctx, `${ctx.runId} conformance: live only`, liveFilter);
      minted.push(liveToken);
      const org = { bearer: orgToken.bearer };
      const live = { bearer: liveToken.bearer };

      // AUTH-004: the organisation filter, on every collection.
      for (const { path } of COLLECTIONS) {
        const { items, res } = await listItems(ctx, path, { wfstatus: ALL_STATUSES, size: 500 }, { token: org });
        const foreign = items.find((i) => i.userorganisation !== ownOrg);
        if (foreign)
          throw new CheckFailure({
            message: `a token restricted to ${ownOrg} listed an item of ${String(foreign.userorganisation)} on ${path}`,
            received: `${String(foreign.trcid)} (${String(foreign.userorganisation)})`,
            expected: `items of ${ownOrg} only`,
            requirements: ['AUTH-004'],
            exchanges: [res.exchange],
          });
      }
      const inScope = await listItems(
        ctx,
        cat.collection,
        { lastupdated: cat.before, wfstatus: ALL_STATUSES, size: PAGE_SIZE.maximum },
        { token: org },
      );
      assertContainsAll(
        onlyThese(inScope.items, cat.trcids),
        cat.entries.map((e) => e.item),
        inScope.res,
        {
          requirements: ['AUTH-004'],
          message: `a token of ${ownOrg} provisioned for every status does not see every status of its own items`,
        },
      );
      if (other) {
        const { items, res } = await listItems(
          ctx,
          '/events',
          { trcid: other.trcid, wfstatus: ALL_STATUSES },
          { token: org },
        );
        if (items.length > 0)
          throw new CheckFailure({
            message: `a token restricted to ${ownOrg} lists an item of ${otherOrg}`,
            received: other.trcid,
            expected: '(nothing)',
            requirements: ['AUTH-004'],
            exchanges: [res.exchange],
          });
        const detail = await ctx.http.get(other.path, { token: org, validate: 'defer' });
        if (detail.status === 200)
          throw new CheckFailure({
            message: `a token restricted to ${ownOrg} reads an item of ${otherOrg}`,
            received: 200,
            expected: '404 (not visible)',
            requirements: ['AUTH-004'],
            exchanges: [detail.exchange],
          });
        detail.assertConforms(['AUTH-004']);
      }

      // AUTH-005 and SCOPE-001: the status filter.
      const seen = await listItems(
        ctx,
        cat.collection,
        { lastupdated: cat.before, wfstatus: ALL_STATUSES, size: PAGE_SIZE.maximum },
        { token: live, validate: 'defer' },
      );
      seen.res.assertConforms(['SCOPE-001']);
      const hidden = seen.items.find((i: Item) => i.wfstatus !== WORKFLOW_STATUS.approved);
      if (hidden)
        throw new CheckFailure({
          message: 'a token provisioned for approved items only listed another status',
          received: `${String(hidden.trcid)} (${String(hidden.wfstatus)})`,
          expected: 'approved items only',
          requirements:
            hidden.wfstatus === WORKFLOW_STATUS.archived || hidden.wfstatus === WORKFLOW_STATUS.deleted
              ? ['AUTH-005', 'SCOPE-001']
              : ['SCOPE-001', 'AUTH-004'],
          exchanges: [seen.res.exchange],
        });
      assertContainsAll(
        onlyThese(seen.items, cat.trcids),
        cat.entries.filter((e) => e.status === WORKFLOW_STATUS.approved).map((e) => e.item),
        seen.res,
        { requirements: ['AUTH-004'] },
      );
      const archived = cat.entries.find((e) => e.status === WORKFLOW_STATUS.archived);
      if (!archived) {
        ctx.unobservable(
          ['AUTH-005'],
          'the target moves no item into archived through the API (the interface leaves that move open)',
        );
        return;
      }
      const detail = await ctx.http.get(archived.path, { token: live, validate: 'defer' });
      if (detail.status === 200)
        throw new CheckFailure({
          message: 'a token provisioned for approved items only reads an archived item',
          received: 200,
          expected: '404 (not visible)',
          requirements: ['AUTH-005'],
          exchanges: [detail.exchange],
        });
      detail.assertConforms(['AUTH-005']);
    } finally {
      for (const t of minted)
        await ctx.http
          .delete(`/accounts/${encodeURIComponent(ctx.config.accountId!)}/tokens/${encodeURIComponent(t.id)}`, {
            token: 'admin',
            validate: false,
          })
          .catch(() => undefined);
    }
  },
});
