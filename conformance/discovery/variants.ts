// The choices a target makes where the interface says "not shown". Discovery finds them at the
// start of a run; a vendor may declare them in the config file (declared values win). Checks read
// them from here instead of assuming the reference service's decisions.

/** How a created item is found after `POST /<collection>`. */
export type CreatedItemLocator = 'answer-body' | 'location-header' | 'trcid-lookup';

/** Where `PUT` for an item goes: the detail URL, or the collection URL with the id in the body. */
export type UpdatePath = 'detail' | 'collection';

/** How `/dictionary/userorganisations` lays out its entries. */
export type UserOrganisationsShape = 'array' | 'map';

/** How an item reaches a status the interface leaves open (rejected, archived, deleted). */
export type StatusMove = 'post' | 'put' | 'unsupported';

export interface TargetVariants {
  createdItem: CreatedItemLocator;
  updatePath: UpdatePath;
  /** Field of a token object that holds its id (e.g. `id`, `tokenId`). */
  tokenIdField: string;
  userOrganisationsShape: UserOrganisationsShape;
  /** Number of the first page of `GET /assets`. */
  assetFirstPage: 0 | 1;
  /** How each open status is reached; statuses absent here were not probed. */
  statusMoves: Partial<Record<'rejected' | 'archived' | 'deleted', StatusMove>>;
  /** HTTP method of `/auth/logout`. */
  logoutMethod: 'POST' | 'GET' | 'DELETE';
  /** Field names of the sign-in body (`{ user, password }` by default). */
  signIn: { userField: string; passwordField: string };
  /** Statuses for missing or invalid credentials and for insufficient role. */
  credentialStatuses: { missing: number; invalid: number; forbidden: number };
  /** Whether error answers other than the size rejection carry a JSON body. */
  errorBodies: 'json' | 'other';
}

/** Where a variant came from, for the report's "target variants". */
export type VariantSource = 'declared' | 'discovered' | 'default';
