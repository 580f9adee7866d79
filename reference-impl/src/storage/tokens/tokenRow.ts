import type { components } from '../../../../generated/types.ts';

type Role = components['schemas']['Role'];
type WfStatus = components['schemas']['WfStatus'];

/** An account token as stored (the token value only as its hash, DEC-AUTH-006). */
export interface TokenRow {
  id: string;
  account_id: string;
  name: string;
  roles: Role[];
  callback_url: string | null;
  /** Sealed by webhooks/secretBox.ts; never leaves the service. */
  signing_secret: string | null;
  /** NULL: the axis is absent, DEC-AUTH-004 defaults apply. */
  filter_userorganisations: string[] | null;
  filter_wfstatus: WfStatus[] | null;
  use_optimized_images: boolean;
  /** The write grant (DEC-AUTH-020): may write items and assets. */
  can_write: boolean;
  created: Date;
}

export const TOKEN_COLUMNS = `api_tokens.id, api_tokens.account_id, api_tokens.name, api_tokens.roles,
  api_tokens.callback_url, api_tokens.signing_secret, api_tokens.filter_userorganisations,
  api_tokens.filter_wfstatus, api_tokens.use_optimized_images, api_tokens.can_write, api_tokens.created`;

/** Every settable column of a token, as an insert or a full update writes them. */
export interface TokenFields {
  name: string;
  roles: readonly Role[];
  callbackUrl: string | null;
  signingSecret: string | null;
  filterUserorganisations: readonly string[] | null;
  filterWfstatus: readonly WfStatus[] | null;
  useOptimizedImages: boolean;
  canWrite: boolean;
}

export function arrayOrNull<T extends string>(values: readonly T[] | null): T[] | null {
  return values === null ? null : [...values];
}
