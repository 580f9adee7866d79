// The AccountToken answer. Secrets appear only through `once`: the operation that made them.
import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import type { components, Readable } from '../../../generated/types.ts';
import { formatTimestamp } from '../domain/timestamps.ts';
import type { TokenRow } from '../storage/tokens/tokenRow.ts';

/** What a single answer may reveal once: the bearer value (creation) and a new signing secret. */
export interface ShownOnce {
  token?: string;
  signingSecret?: string;
}

/** The spec's AccountToken, with what AccountTokenCreated and AccountTokenWithSecret add, once. */
export type AccountTokenView = Readable<components['schemas']['AccountToken']> & ShownOnce;

// @implements TOKEN-001
export function tokenView(
  row: TokenRow,
  accountOrganisations: readonly string[],
  once: ShownOnce = {},
): AccountTokenView {
  const filter: AccountTokenView['apiTokenFilter'] = {};
  if (row.filter_userorganisations !== null) filter.userorganisations = [...row.filter_userorganisations];
  if (row.filter_wfstatus !== null) filter.wfstatus = [...row.filter_wfstatus];
  return {
    id: row.id,
    name: row.name,
    roles: [...row.roles],
    ...(row.callback_url === null ? {} : { callBackUrl: row.callback_url }),
    created: formatTimestamp(row.created),
    apiTokenFilter: filter,
    filter: describeScope(row, accountOrganisations),
    useOptimizedImages: row.use_optimized_images,
    canWrite: row.can_write,
    hasSigningSecret: row.signing_secret !== null,
    ...(once.token === undefined ? {} : { token: once.token }),
    ...(once.signingSecret === undefined ? {} : { signingSecret: once.signingSecret }),
  };
}

/** `filter`: the effective scope with DEC-AUTH-004's defaults filled in, for people to read. */
function describeScope(
  row: Pick<TokenRow, 'roles' | 'filter_userorganisations' | 'filter_wfstatus'>,
  accountOrganisations: readonly string[],
): string {
  if (row.roles.includes('ROLE_SUPER_ADMIN')) return 'userorganisations: all; wfstatus: all';
  const organisations = row.filter_userorganisations ?? accountOrganisations;
  const statuses = row.filter_wfstatus ?? [WORKFLOW_STATUS.approved];
  return `userorganisations: ${organisations.join(', ') || 'none'}; wfstatus: ${statuses.join(', ') || 'none'}`;
}
