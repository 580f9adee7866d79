// @implements TOKEN-002
// Token administration (TOKEN-002..013, DEC-AUTH-006..011, DEC-HOOK-001/002/010): the operations
// behind /accounts/{accountId}/tokens. Routes only translate HTTP; rules live here.
import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/types.ts';
import { generateTokenValue, hashToken } from '../auth/tokenHash.ts';
import { badRequest, HttpError } from '../http/HttpError.ts';
import { assertAccountAccess, type Principal } from '../http/principal.ts';
import type { Db } from '../storage/db.ts';
import { deleteToken } from '../storage/tokens/deleteToken.ts';
import { getAccountOrganisations } from '../storage/tokens/getAccountOrganisations.ts';
import { getAccountToken } from '../storage/tokens/getAccountToken.ts';
import { insertToken } from '../storage/tokens/insertToken.ts';
import type { TokenFields, TokenRow } from '../storage/tokens/tokenRow.ts';
import { updateToken } from '../storage/tokens/updateToken.ts';
import { dropPendingDeliveries } from '../storage/webhooks/dropPendingDeliveries.ts';
import { validateCallbackUrl } from '../webhooks/callbackUrl.ts';
import { readDeliveryLog, type DeliveryView } from '../webhooks/deliveryLog.ts';
import { generateSigningSecret } from '../webhooks/sign.ts';
import type { Resolver } from '../webhooks/ssrfGuard.ts';
import {
  assertGrantable,
  assertManageable,
  assertOrganisationsOfAccount,
  assertWithinScope,
  type TokenScope,
} from './grants.ts';
import type { SecretBox } from '../webhooks/secretBox.ts';
import { tokenView, type AccountTokenView } from './tokenView.ts';

export interface TokenAdminDeps {
  db: Db;
  secrets: SecretBox;
  now: () => number;
  allowInsecureCallbacks: boolean;
  /** DNS for the registration-time callBackUrl check; the system resolver when absent. */
  resolve?: Resolver;
  /** Told after a token changed or went, so this instance forgets its principal at once. */
  tokensChanged?: () => void;
}

/** The POST body as validated against the spec's AccountTokenCreate. */
export type CreateTokenInput = components['schemas']['AccountTokenCreate'];

export type TokenFilterInput = NonNullable<CreateTokenInput['apiTokenFilter']>;

/** PUT: only the fields present change (DEC-AUTH-008); callBackUrl "" removes the webhook. */
export type UpdateTokenInput = Partial<CreateTokenInput>;

/** 404 unless the caller may act on the account and it exists; its organisations otherwise. */
async function accountScope(deps: TokenAdminDeps, caller: Principal, accountId: string): Promise<string[]> {
  assertAccountAccess(caller, accountId);
  const organisations = await getAccountOrganisations(deps.db, { accountId });
  if (organisations === null) throw new HttpError(404, { message: `No account with id ${accountId}` });
  return organisations;
}

const GRANT = 'A token can see only organisations and statuses the caller sees, and write only when the caller may';
const MANAGE =
  'Only a caller that sees everything a token sees, and may write when it may, can change, delete or rotate it';
const READ_LOG = 'Only a caller that sees everything a token sees, and may write when it may, can read its deliveries';

/** A stored token's scope, for assertWithinScope. */
function scopeOf(row: TokenRow, accountOrganisations: readonly string[]): TokenScope {
  return {
    accountId: row.account_id,
    roles: row.roles,
    filterUserorganisations: row.filter_userorganisations,
    filterWfstatus: row.filter_wfstatus,
    accountOrganisations,
    canWrite: row.can_write,
  };
}

function noToken(accountId: string, tokenId: string): HttpError {
  return new HttpError(404, { message: `No token ${tokenId} in account ${accountId}` });
}

/** DEC-HOOK-002 at registration; the 400 carries the checker's reason. */
async function checkedCallbackUrl(deps: TokenAdminDeps, url: string): Promise<string> {
  const result = await validateCallbackUrl(url, {
    allowInsecure: deps.allowInsecureCallbacks,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  });
  if (!result.ok) throw badRequest('/callBackUrl', result.reason);
  return result.url;
}

export async function createAccountToken(
  deps: TokenAdminDeps,
  caller: Principal,
  accountId: string,
  input: CreateTokenInput,
): Promise<AccountTokenView> {
  const organisations = await accountScope(deps, caller, accountId);
  assertGrantable(caller, input.roles);
  assertOrganisationsOfAccount(input.apiTokenFilter?.userorganisations, organisations, accountId);
  assertWithinScope(
    caller,
    {
      accountId,
      roles: input.roles,
      filterUserorganisations: input.apiTokenFilter?.userorganisations ?? null,
      filterWfstatus: input.apiTokenFilter?.wfstatus ?? null,
      accountOrganisations: organisations,
      canWrite: input.canWrite ?? false,
    },
    GRANT,
  );
  const callbackUrl = input.callBackUrl === undefined ? null : await checkedCallbackUrl(deps, input.callBackUrl);

  const id = randomUUID();
  const token = generateTokenValue();
  const signingSecret = callbackUrl === null ? undefined : generateSigningSecret();
  const row = await insertToken(deps.db, {
    id,
    accountId,
    tokenHash: hashToken(token),
    created: new Date(deps.now()),
    name: input.name,
    roles: input.roles,
    callbackUrl,
    signingSecret: signingSecret === undefined ? null : deps.secrets.seal(signingSecret, id),
    filterUserorganisations: input.apiTokenFilter?.userorganisations ?? null,
    filterWfstatus: input.apiTokenFilter?.wfstatus ?? null,
    useOptimizedImages: input.useOptimizedImages ?? false,
    canWrite: input.canWrite ?? false,
  });
  return tokenView(row, organisations, { token, signingSecret });
}

// @implements TOKEN-004, TOKEN-007
export async function updateAccountToken(
  deps: TokenAdminDeps,
  caller: Principal,
  accountId: string,
  tokenId: string,
  input: UpdateTokenInput,
): Promise<AccountTokenView> {
  const organisations = await accountScope(deps, caller, accountId);
  if (input.roles !== undefined) assertGrantable(caller, input.roles);
  assertOrganisationsOfAccount(input.apiTokenFilter?.userorganisations, organisations, accountId);
  // Checked before the transaction: a DNS lookup must not hold the token's row lock.
  const newUrl =
    input.callBackUrl === undefined || input.callBackUrl === ''
      ? undefined
      : await checkedCallbackUrl(deps, input.callBackUrl);

  const view = await deps.db.transaction(async (tx) => {
    const current = await getAccountToken(tx, { accountId, tokenId, forUpdate: true });
    if (current === null) throw noToken(accountId, tokenId);
    assertManageable(caller, current.roles);
    assertWithinScope(caller, scopeOf(current, organisations), MANAGE);

    const fields: TokenFields = {
      name: input.name ?? current.name,
      roles: input.roles ?? current.roles,
      callbackUrl: current.callback_url,
      signingSecret: current.signing_secret,
      filterUserorganisations:
        input.apiTokenFilter === undefined
          ? current.filter_userorganisations
          : (input.apiTokenFilter.userorganisations ?? null),
      filterWfstatus:
        input.apiTokenFilter === undefined ? current.filter_wfstatus : (input.apiTokenFilter.wfstatus ?? null),
      useOptimizedImages: input.useOptimizedImages ?? current.use_optimized_images,
      canWrite: input.canWrite ?? current.can_write,
    };
    assertWithinScope(
      caller,
      {
        accountId,
        roles: fields.roles,
        filterUserorganisations: fields.filterUserorganisations,
        filterWfstatus: fields.filterWfstatus,
        accountOrganisations: organisations,
        canWrite: fields.canWrite,
      },
      GRANT,
    );
    let signingSecret: string | undefined;
    if (input.callBackUrl === '') {
      // @implements TOKEN-005
      // TOKEN-005: the webhook and its secret go; so does the work still waiting for them.
      fields.callbackUrl = null;
      fields.signingSecret = null;
      await dropPendingDeliveries(tx, { tokenId });
    } else if (newUrl !== undefined) {
      // @implements TOKEN-006, TOKEN-008
      // TOKEN-006/007: register or move; an existing secret is kept. TOKEN-008: a token that
      // had no webhook gets its first secret, shown in this answer only.
      if (current.callback_url === null && current.signing_secret === null) {
        signingSecret = generateSigningSecret();
        fields.signingSecret = deps.secrets.seal(signingSecret, tokenId);
      }
      fields.callbackUrl = newUrl;
    }
    const row = await updateToken(tx, { id: tokenId, ...fields });
    if (row === null) throw noToken(accountId, tokenId);
    return tokenView(row, organisations, { signingSecret });
  });
  deps.tokensChanged?.();
  return view;
}

// @implements TOKEN-009
export async function deleteAccountToken(
  deps: TokenAdminDeps,
  caller: Principal,
  accountId: string,
  tokenId: string,
): Promise<void> {
  const organisations = await accountScope(deps, caller, accountId);
  await deps.db.transaction(async (tx) => {
    const current = await getAccountToken(tx, { accountId, tokenId, forUpdate: true });
    if (current === null) throw noToken(accountId, tokenId);
    assertManageable(caller, current.roles);
    assertWithinScope(caller, scopeOf(current, organisations), MANAGE);
    await deleteToken(tx, { accountId, tokenId });
  });
  deps.tokensChanged?.();
}

// @implements TOKEN-011, TOKEN-012
/**
 * TOKEN-010..012: a new secret, shown once. Deliveries are signed at send time with the secret
 * stored then, so the old one stops verifying at once, for retries of older deliveries too.
 * @implements TOKEN-010
 */
export async function rotateTokenSecret(
  deps: TokenAdminDeps,
  caller: Principal,
  accountId: string,
  tokenId: string,
): Promise<AccountTokenView> {
  const organisations = await accountScope(deps, caller, accountId);
  return deps.db.transaction(async (tx) => {
    const current = await getAccountToken(tx, { accountId, tokenId, forUpdate: true });
    if (current === null) throw noToken(accountId, tokenId);
    assertManageable(caller, current.roles);
    assertWithinScope(caller, scopeOf(current, organisations), MANAGE);
    if (current.callback_url === null) {
      throw new HttpError(409, {
        message: `token ${tokenId} has no callBackUrl; register one with PUT before rotating its secret`,
      });
    }
    const signingSecret = generateSigningSecret();
    const row = await updateToken(tx, {
      id: tokenId,
      name: current.name,
      roles: current.roles,
      callbackUrl: current.callback_url,
      signingSecret: deps.secrets.seal(signingSecret, tokenId),
      filterUserorganisations: current.filter_userorganisations,
      filterWfstatus: current.filter_wfstatus,
      useOptimizedImages: current.use_optimized_images,
      canWrite: current.can_write,
    });
    if (row === null) throw noToken(accountId, tokenId);
    return tokenView(row, organisations, { signingSecret });
  });
}

/**
 * DEC-HOOK-007/011: the token's deliveries with their attempts, newest first; like managing the
 * token, only for a caller that sees what it sees (DEC-AUTH-010, DEC-AUTH-017): a delivery log
 * names the items the token heard of.
 */
export async function listTokenDeliveries(
  deps: TokenAdminDeps,
  caller: Principal,
  accountId: string,
  tokenId: string,
  page: { size: number; page: number },
): Promise<DeliveryView[]> {
  const organisations = await accountScope(deps, caller, accountId);
  const token = await getAccountToken(deps.db, { accountId, tokenId });
  if (token === null) throw noToken(accountId, tokenId);
  assertManageable(caller, token.roles);
  assertWithinScope(caller, scopeOf(token, organisations), READ_LOG);
  return readDeliveryLog(deps.db, { tokenId, ...page });
}
