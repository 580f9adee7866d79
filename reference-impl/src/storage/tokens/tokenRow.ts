/** An account token as stored (the token value only as its hash, DEC-AUTH-006). */
export interface TokenRow {
  id: string;
  account_id: string;
  name: string;
  roles: string[];
  callback_url: string | null;
  /** Sealed by tokens/secretBox.ts; never leaves the service. */
  signing_secret: string | null;
  /** NULL: the axis is absent, DEC-AUTH-004 defaults apply. */
  filter_userorganisations: string[] | null;
  filter_wfstatus: string[] | null;
  use_optimized_images: boolean;
  created: Date;
}

export const TOKEN_COLUMNS = `api_tokens.id, api_tokens.account_id, api_tokens.name, api_tokens.roles,
  api_tokens.callback_url, api_tokens.signing_secret, api_tokens.filter_userorganisations,
  api_tokens.filter_wfstatus, api_tokens.use_optimized_images, api_tokens.created`;

/** Every settable column of a token, as an insert or a full update writes them. */
export interface TokenFields {
  name: string;
  roles: readonly string[];
  callbackUrl: string | null;
  signingSecret: string | null;
  filterUserorganisations: readonly string[] | null;
  filterWfstatus: readonly string[] | null;
  useOptimizedImages: boolean;
}

export function arrayOrNull(values: readonly string[] | null): string[] | null {
  return values === null ? null : [...values];
}
