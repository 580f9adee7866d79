// The suite's writer token and its own organisation: which token writes, reads back and cleans
// up, and where the suite's test data goes.

import type { TokenChoice } from '../http/httpClient.ts';
import { variantsOf } from '../model/variants.ts';
import type { UserOrganisation } from '../model/userOrganisations.ts';
import { userOrganisationEntries } from '../model/userOrganisations.ts';
import { CheckFailure } from '../model/failure.ts';
import type { CheckContext } from '../engine/runtime/context.ts';
import { assertBodyIsArray, assertStatus } from './assert.ts';
import { runFixture } from './fixtures.ts';
import type { Ctx } from './itemTypes.ts';

/**
 * The token the suite writes with: the one that sees every status (`--full-token`), else the
 * admin token, else the consumer token. It also reads back and cleans up what it wrote, so an
 * item written in a status a live token cannot see is still found and soft-deleted.
 */
export function writerToken(ctx: Pick<CheckContext, 'tokens'>): 'full' | 'admin' | 'consumer' {
  if (ctx.tokens.full) return 'full';
  if (ctx.tokens.admin) return 'admin';
  return 'consumer';
}

export type { UserOrganisation };

/** `GET /dictionary/userorganisations` (open to any valid token), as entries whatever the target's layout. */
export async function listUserOrganisations(
  ctx: Ctx,
  token: TokenChoice = writerToken(ctx),
): Promise<UserOrganisation[]> {
  const res = await ctx.http.get('/dictionary/userorganisations', { token });
  assertStatus(res, 200, { requirements: ['DICT-005'] });
  const shape = variantsOf(ctx).userOrganisationsShape;
  if (shape === 'array') return assertBodyIsArray(res, { requirements: ['DICT-005'] }) as UserOrganisation[];
  if (typeof res.body !== 'object' || res.body === null || Array.isArray(res.body)) {
    throw new CheckFailure({
      message:
        'GET /dictionary/userorganisations did not answer a map keyed by organisation (the layout discovered or declared)',
      received: res.text.slice(0, 200),
      expected: 'a JSON object',
      requirements: ['DICT-005'],
      exchanges: [res.exchange],
    });
  }
  return userOrganisationEntries(res.body, shape);
}

/**
 * The suite's own organisation: the first userorganisation of `--account-id` in
 * `GET /dictionary/userorganisations`. Undefined without `--account-id` (items are then written
 * without `userorganisation`, and the target puts them in the writing token's default one).
 */
export async function findOwnOrganisation(ctx: Ctx): Promise<string | undefined> {
  const accountId = ctx.config.accountId;
  if (!accountId) return undefined;
  return runFixture(ctx, `own-organisation:${accountId}`, async () => {
    const all = await listUserOrganisations(ctx);
    const own = all.find((o) => o.accountId === accountId);
    if (!own) {
      throw new CheckFailure({
        kind: 'error',
        message: `GET /dictionary/userorganisations lists no organisation of account ${accountId} (--account-id); the suite writes its test data there`,
        received: all.map((o) => `${o.userorganisation} (${o.accountId})`).join(', ') || '(none)',
        expected: `an entry with accountId ${accountId}`,
      });
    }
    return own.userorganisation;
  });
}
