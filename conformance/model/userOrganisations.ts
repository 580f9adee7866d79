// `/dictionary/userorganisations` as a list of entries, whatever its layout: an array of
// `{userorganisation, accountId, …}`, or a map keyed by organisation whose values hold the
// `accountId` (or are the account id itself). The interface names only the two members.

import type { UserOrganisationsShape } from './variants.ts';

export interface UserOrganisation {
  userorganisation: string;
  accountId: string;
  [key: string]: unknown;
}

/** The entries of an answer in the given layout; none when the answer is not in that layout. */
export function userOrganisationEntries(body: unknown, shape: UserOrganisationsShape): UserOrganisation[] {
  if (shape === 'array') return Array.isArray(body) ? (body as UserOrganisation[]) : [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  return Object.entries(body as Record<string, unknown>).map(([userorganisation, value]) =>
    typeof value === 'object' && value !== null
      ? ({ userorganisation, ...(value as Record<string, unknown>) } as UserOrganisation)
      : ({ userorganisation, accountId: value } as UserOrganisation),
  );
}
